"""Django database backend for the embedded PostgreSQL.

It is the stock PostgreSQL backend; it only starts (or joins) the embedded
server the first time a connection is opened, so commands that never touch
the database (``manage.py help``) never start a server.
"""
from django.conf import settings
from django.db.backends.postgresql import base as postgresql

from acehrag.embedded_db import embedded_server, ensure_database


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def get_connection_params(self):
        server = embedded_server(settings.ACEH_RAG.data_dir)
        name = self.settings_dict["NAME"] or "postgres"
        # Django creates (and drops) test databases itself through "postgres".
        if name != "postgres" and not name.startswith("test_"):
            ensure_database(server, name)
        params = super().get_connection_params()
        params.update(host=server.socket_dir, port=server.port, user=server.user)
        params.pop("password", None)
        return params
