FROM debian:bookworm

RUN apt-get update && apt-get install -y --no-install-recommends \
      git curl ca-certificates sudo zsh locales \
    && rm -rf /var/lib/apt/lists/*

RUN curl -fsSL http://get.devbox-tools.sh | bash -s -- --all

ARG USERNAME=dev
RUN useradd -m -s /bin/zsh ${USERNAME} \
    && echo "${USERNAME} ALL=(ALL) NOPASSWD:ALL" > /etc/sudoers.d/${USERNAME}

USER ${USERNAME}
WORKDIR /home/${USERNAME}
