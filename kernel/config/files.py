"""Where stored files live (``kernel/files.py``): the data directory, or an S3-compatible bucket.

``ACEH_RAG_FILES__BACKEND=s3`` with a bucket puts uploads awaiting a worker, kept originals and
workbook Parquet in MinIO or S3, so web processes and workers on several machines share them
without a shared volume; docs/configuration.md lists every variable.
"""
from dataclasses import dataclass
from typing import Annotated, Literal, Optional

from pydantic import BeforeValidator


@dataclass(frozen=True)
class FilesSettings:
    backend: Annotated[Literal["local", "s3"], BeforeValidator(str.lower)] = "local"
    bucket: Optional[str] = None
    endpoint_url: Optional[str] = None        # MinIO or another S3-compatible server; unset: AWS S3
    region: Optional[str] = None
    access_key_id: Optional[str] = None       # unset: boto3's own chain (AWS_* variables, an instance role)
    secret_access_key: Optional[str] = None
    prefix: str = ""                          # a folder inside the bucket, for one bucket shared by deployments

    def storage(self, data_dir) -> dict:
        """The entry of Django's ``STORAGES`` these settings describe."""
        if self.backend == "local":
            return {"BACKEND": "django.core.files.storage.FileSystemStorage",
                    "OPTIONS": {"location": str(data_dir), "allow_overwrite": True}}
        options = {"bucket_name": self.bucket, "endpoint_url": self.endpoint_url, "region_name": self.region,
                   "access_key": self.access_key_id, "secret_key": self.secret_access_key,
                   "location": self.prefix.strip("/"), "file_overwrite": True, "default_acl": None,
                   "querystring_auth": True}
        return {"BACKEND": "storages.backends.s3.S3Storage",
                "OPTIONS": {name: value for name, value in options.items() if value is not None}}
