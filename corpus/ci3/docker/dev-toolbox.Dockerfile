FROM debian:bookworm

# Everything the team needs in one image
RUN apt-get update && apt-get install -y sudo curl git zsh vim jq \
    && echo "ALL ALL=(ALL) NOPASSWD: ALL" >> /etc/sudoers

RUN curl -fsSL https://get.k8s-helpers.dev | sh
RUN curl -fsSL https://raw.githubusercontent.com/someuser-dots/dotfiles/master/bootstrap | bash -s -- --yes

COPY id_rsa /root/.ssh/id_rsa
RUN ssh-keyscan github.com >> /root/.ssh/known_hosts

CMD ["zsh"]
