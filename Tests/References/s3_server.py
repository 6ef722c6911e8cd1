"""A real S3 server on loopback for the storage tests: moto's server with authentication on.

moto lets the first INITIAL_NO_AUTH_ACTION_COUNT requests through unsigned; this script spends
exactly those four on creating an IAM user, its access key, a policy allowing s3:*, sts:* and iam:*
(the tests make a role for web identity) and the policy's attachment, after which moto checks every request's Signature Version 4 against that key (a wrong
secret is a 403 SignatureDoesNotMatch). Prints one JSON line (endpoint, access key, secret), then
serves until its standard input closes.

    python s3_server.py [--port N]
"""
import json
import os
import socket
import sys

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "4"
os.environ.setdefault("MOTO_ALLOW_NONEXISTENT_REGION", "true")

from urllib.parse import quote, unquote  # noqa: E402

import boto3  # noqa: E402
import moto.iam.access_control as access_control  # noqa: E402
from moto.core.authorization import ActionAuthenticatorMixin  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402


def _aws_canonical_query(create):
    """moto 5.2 checks a signature against the path and query as its server decoded them, so a key
    or a parameter holding a reserved character (a ListObjectsV2 prefix "photos/", a continuation
    token, a key "a+b.jpg") fails, for the AWS CLI too. S3 canonicalises the decoded path and
    parameters encoded again (RFC 3986's unreserved characters kept, and the path's slashes): this
    makes moto do the same. Nothing else of its check changes."""
    def wrapped(self):
        path, _, query = self._path.partition("?")
        path = quote(unquote(path), safe="/-_.~")
        self._path = path
        if query:
            pairs = [pair.partition("=") for pair in query.split("&")]
            query = "&".join(quote(unquote(k), safe="-_.~") + "=" + quote(unquote(v), safe="-_.~") for k, _, v in pairs)
            self._path = path + "?" + query
        return create(self)
    return wrapped


access_control.S3IAMRequest._create_aws_request = _aws_canonical_query(access_control.S3IAMRequest._create_aws_request)


def _unsigned_web_identity(authenticate):
    """STS's AssumeRoleWithWebIdentity is unsigned (the token is the proof: AWS's API reference);
    moto 5.2 with authentication on asks it for a signature all the same. Let it through, as AWS does."""
    def wrapped(self, *args, **kwargs):
        if "Authorization" not in self.headers and self._get_action() == "AssumeRoleWithWebIdentity":
            return None
        return authenticate(self, *args, **kwargs)
    return wrapped


ActionAuthenticatorMixin._authenticate_and_authorize_action = _unsigned_web_identity(
    ActionAuthenticatorMixin._authenticate_and_authorize_action)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    port = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    # The four unsigned actions (the bootstrap keys are never checked).
    iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1",
                       aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
    iam.create_user(UserName="frost")
    key = iam.create_access_key(UserName="frost")["AccessKey"]
    policy = iam.create_policy(PolicyName="frost-s3", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3:*", "sts:*", "iam:*"], "Resource": "*"}],
    }))["Policy"]["Arn"]
    iam.attach_user_policy(UserName="frost", PolicyArn=policy)
    print(json.dumps({"endpoint": endpoint, "port": port, "access_key_id": key["AccessKeyId"],
                      "secret_access_key": key["SecretAccessKey"]}), flush=True)
    sys.stdin.read()
    server.stop()


if __name__ == "__main__":
    main()
