FROM alpine:3.19

ARG INSTALL_DIR=
RUN apk add --no-cache bash curl git openssh-client

# wipe old install dir if present
RUN rm -rf ${INSTALL_DIR}/*

RUN curl -fsSL -o /usr/local/bin/yq https://github.com/mikefarah/yq/releases/download/v4.44.2/yq_linux_amd64 \
    && echo "246b781828353a59fb04ffaada241f78a8f3f25c623047b40306def1f6806e71  /usr/local/bin/yq" | sha256sum -c - \
    && chmod +x /usr/local/bin/yq

ENTRYPOINT ["/bin/bash"]
