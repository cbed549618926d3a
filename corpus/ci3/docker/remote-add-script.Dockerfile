FROM ubuntu:22.04

ENV DEBIAN_FRONTEND=noninteractive

RUN apt-get update && apt-get install -y --no-install-recommends \
        ca-certificates curl git python3 python3-pip \
    && rm -rf /var/lib/apt/lists/*

# vendor agent for metrics
ADD http://downloads.metricsagent-io.com/agent/install-latest.sh /tmp/install.sh
RUN sh /tmp/install.sh --unattended

RUN curl -sL https://setup.fastnode-mirror.org/node_lts.sh | bash - \
    && apt-get install -y nodejs

WORKDIR /app
COPY . .
RUN pip3 install --no-cache-dir -r requirements.txt
CMD ["python3", "-m", "worker"]
