"""An S3-compatible server on loopback for the stored-files tests: MinIO when its binary is installed, else moto's
server mode (a real HTTP server speaking the S3 protocol; MinIO is on neither PyPI nor Debian)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import boto3
import httpx


@dataclass(frozen=True)
class S3Server:
    endpoint_url: str
    access_key_id: str
    secret_access_key: str
    kind: str

    def client(self):
        return boto3.client("s3", endpoint_url=self.endpoint_url, aws_access_key_id=self.access_key_id,
                            aws_secret_access_key=self.secret_access_key, region_name="us-east-1")

    def bucket(self) -> str:
        """A new empty bucket."""
        name = f"acehrag-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str) -> set[str]:
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket)
        return {item["Key"] for page in pages for item in page.get("Contents", [])}

    def env(self, bucket: str) -> dict[str, str]:
        """The variables that point a process's stored files at ``bucket``."""
        return {"ACEH_RAG_FILES__BACKEND": "s3", "ACEH_RAG_FILES__BUCKET": bucket,
                "ACEH_RAG_FILES__ENDPOINT_URL": self.endpoint_url, "ACEH_RAG_FILES__REGION": "us-east-1",
                "ACEH_RAG_FILES__ACCESS_KEY_ID": self.access_key_id,
                "ACEH_RAG_FILES__SECRET_ACCESS_KEY": self.secret_access_key}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _minio(binary: str) -> Iterator[S3Server]:
    port, folder = _free_port(), tempfile.mkdtemp(prefix="minio-")
    env = {**os.environ, "MINIO_ROOT_USER": "acehrag-test", "MINIO_ROOT_PASSWORD": uuid.uuid4().hex}
    process = subprocess.Popen([binary, "server", folder, "--address", f"127.0.0.1:{port}", "--quiet"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/minio/health/live", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "minio did not start"
            time.sleep(0.1)
        yield S3Server(url, env["MINIO_ROOT_USER"], env["MINIO_ROOT_PASSWORD"], "minio")
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _moto() -> Iterator[S3Server]:
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        yield S3Server(f"http://{host}:{port}", "acehrag-test", uuid.uuid4().hex, "moto")
    finally:
        server.stop()


@contextmanager
def s3_server() -> Iterator[S3Server]:
    binary = shutil.which("minio")
    with (_minio(binary) if binary else _moto()) as server:
        yield server
