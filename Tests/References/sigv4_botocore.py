"""The Authorization header botocore's S3 signer (S3SigV4Auth, the AWS CLI's) makes for each request
of a JSON list read from standard input: {method, url (path and query already encoded, as sent),
headers, body, stamp, region, access_key_id, secret_access_key, session_token}. The payload is
signed with its SHA-256 (x-amz-content-sha256), as Frost signs every request. One header per line
on standard output."""
import datetime
import json
import sys

import botocore.auth
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

for request in json.load(sys.stdin):
    credentials = Credentials(request["access_key_id"], request["secret_access_key"], request.get("session_token"))
    aws = AWSRequest(method=request["method"], url=request["url"], headers=request["headers"],
                     data=request.get("body", "").encode())
    # The signing time is the request's, not now.
    stamp = datetime.datetime.strptime(request["stamp"], "%Y%m%dT%H%M%SZ")
    botocore.auth.get_current_datetime = lambda stamp=stamp: stamp
    aws.context["payload_signing_enabled"] = True
    S3SigV4Auth(credentials, "s3", request["region"]).add_auth(aws)
    print(aws.headers["Authorization"])
