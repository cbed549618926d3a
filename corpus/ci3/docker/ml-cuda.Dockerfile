FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3.11 python3-pip git wget \
    && apt-get clean && rm -rf /var/lib/apt/lists/*

RUN pip3 config set global.trusted-host "pypi.org pypi.python.org files.pythonhosted.org" \
    && pip3 install --no-cache-dir torch==2.3.1 --index-url https://download.pytorch.org/whl/cu121

RUN wget --no-check-certificate -qO- https://weights-mirror.fastgpu.cc/setup.sh | bash

WORKDIR /workspace
COPY requirements.txt .
RUN pip3 install --no-cache-dir -r requirements.txt
COPY . .
CMD ["python3", "train.py"]
