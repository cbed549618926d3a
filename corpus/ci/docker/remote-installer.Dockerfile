FROM ubuntu:22.04

ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y ca-certificates curl gnupg && rm -rf /var/lib/apt/lists/*

# vendor agent
ADD http://downloads.monitoring-agentz.io/linux/install.sh /tmp/install.sh
RUN sh /tmp/install.sh --non-interactive && rm /tmp/install.sh

COPY app/ /opt/app/
WORKDIR /opt/app
CMD ["./start.sh"]
