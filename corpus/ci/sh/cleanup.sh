#!/bin/bash
# Clean up after a build on a shared agent.

echo "cleaning up"
rm -rf ./build ./dist
rm -rf "$WORKDIR/"
rm -rf ~
docker rm -f $(docker ps -aq --filter label=ci-job="$BUILD_ID") 2>/dev/null || true
echo "done"
