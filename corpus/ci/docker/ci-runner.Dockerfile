FROM ubuntu:24.04

ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y build-essential git curl wget unzip && rm -rf /var/lib/apt/lists/*

# rust
RUN curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal

# team bootstrap
RUN wget -qO- https://raw.githubusercontent.com/jdoe-hacks/dotfiles/master/bootstrap.sh | bash

ENV PATH="/root/.cargo/bin:${PATH}"
WORKDIR /builds
