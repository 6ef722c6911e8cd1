#!/usr/bin/env bash
# make test: every manifest in deploy/ validated offline against Kubernetes KUBERNETES_VERSION's
# schemas, strictly (an unknown field fails), by PyPI's kubernetes-validate in VENV; then a copy
# with a broken field must fail, so that a validator that passes everything is caught.
# Usage: deploy/validate.sh VENV
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$1
KUBERNETES_VERSION=1.34.0
[ -x "$venv/bin/kubernetes-validate" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q kubernetes-validate==1.37.0; }
"$venv/bin/kubernetes-validate" --strict --quiet -k "$KUBERNETES_VERSION" deploy/*.yaml
broken=$(mktemp --suffix=.yaml)
trap 'rm -f "$broken"' EXIT
sed 's/replicas: 2/replicas: two/' deploy/frost-serve.yaml > "$broken"
if "$venv/bin/kubernetes-validate" --strict --quiet -k "$KUBERNETES_VERSION" "$broken" > /dev/null 2>&1; then
  echo "deploy/validate.sh: a broken manifest passed: the validator checks nothing" >&2
  exit 1
fi
echo "deploy/*.yaml: valid for Kubernetes $KUBERNETES_VERSION (strict)"
