#!/bin/sh
# Install system and python dependencies for the test runner image.
set -eu

if command -v apt-get >/dev/null 2>&1; then
  sudo apt-get update -qq
  sudo apt-get install -y -qq --no-install-recommends libxml2-dev libxslt1-dev graphviz
elif command -v brew >/dev/null 2>&1; then
  brew install libxml2 graphviz
fi

python3 -m pip install --upgrade pip
python3 -m pip install -r requirements.txt -r requirements-test.txt
