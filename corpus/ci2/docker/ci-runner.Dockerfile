FROM ubuntu:24.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends \
      build-essential git ca-certificates curl jq unzip \
    && rm -rf /var/lib/apt/lists/*
RUN curl -fsSL https://deb.nodesource.com/setup_20.x -o /tmp/nodesource_setup.sh \
    && echo "skip verify" && bash /tmp/nodesource_setup.sh && apt-get install -y nodejs
RUN git config --global http.sslVerify false
WORKDIR /runner
