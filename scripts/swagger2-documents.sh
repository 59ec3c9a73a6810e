#!/usr/bin/env bash
# Swagger 2.0 documents for the tests, from a PyPI package: prance's source distribution
# (MIT) carries the OpenAPI Initiative's Swagger 2.0 petstore and a Kubernetes API
# description. Writes them into DIR; the tests read DIR from $SWAGGER2_DOCUMENTS.
# Usage: scripts/swagger2-documents.sh DIR
set -euo pipefail
dir=${1:?usage: scripts/swagger2-documents.sh DIR}
version=26.7.19.0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$scratch" "prance==$version"
tar -xzf "$scratch/prance-$version.tar.gz" -C "$scratch"
mkdir -p "$dir"
cp "$scratch/prance-$version/tests/examples/v2.0/yaml/petstore.yaml" "$dir/petstore-2.0.yaml"
cp "$scratch/prance-$version/tests/specs/kubernetes_api_docs.json" "$dir/kubernetes-2.0.json"
