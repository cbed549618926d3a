FROM registry.fedoraproject.org/fedora:40

LABEL maintainer="infra@example.org"

RUN dnf -y install \
      gcc make git python3-pip podman-remote \
    && dnf clean all \
    && rm -rf /var/cache/dnf

RUN python3 -m pip install --no-cache-dir ansible-core==2.17.4 yamllint

WORKDIR /work
ENTRYPOINT ["/bin/bash"]
