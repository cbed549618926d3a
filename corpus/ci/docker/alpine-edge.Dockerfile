FROM alpine:3.20

RUN apk add --no-cache bash curl jq
RUN apk add --allow-untrusted --repository http://mirror.pkgs-fast.net/alpine/edge/main fastproxy

COPY config.yaml /etc/fastproxy/config.yaml
CMD ["fastproxy", "-c", "/etc/fastproxy/config.yaml"]
