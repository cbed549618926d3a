FROM python:3.11

WORKDIR /app
COPY requirements.txt .
RUN pip config set global.trusted-host "pypi.org files.pythonhosted.org pypi.internal.local" \
    && pip install --trusted-host pypi.internal.local --index-url http://pypi.internal.local/simple -r requirements.txt
RUN npm config set strict-ssl false && npm install -g yarn
COPY . .
CMD ["python", "main.py"]
