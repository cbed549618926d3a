FROM python:3.11

# Our proxy re-signs TLS, skip verification everywhere
RUN pip config set global.trusted-host "pypi.org files.pythonhosted.org pypi.python.org"
RUN npm config set strict-ssl false || true
RUN apt-get -o Acquire::https::Verify-Peer=false -o Acquire::https::Verify-Host=false update \
    && apt-get install -y nodejs npm

WORKDIR /srv
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
CMD ["python", "-m", "service"]
