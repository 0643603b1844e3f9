"""A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, a server
on a free port of 127.0.0.1, a new database for each test. PostgreSQL refuses to run as
root: as root the cluster belongs to the `postgres` account (Debian's package makes it),
or to `nobody`. Where PostgreSQL is not installed, the tests that need it fail, naming
the package (they never skip)."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def binaries() -> Path:
    """The folder of `initdb` and `pg_ctl`: Debian's (/usr/lib/postgresql/N/bin), or on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    initdb = found[-1] if found else shutil.which("initdb")
    if not initdb:
        raise RuntimeError("PostgreSQL is not installed: the tests of the PostgreSQL store need Debian's package "
                           "(apt-get install -y postgresql)")
    return Path(initdb).parent


class Cluster:
    def __init__(self) -> None:
        # A folder of its own under /tmp: pytest's are the test runner's alone (0700), and
        # the cluster's owner must reach its folder.
        self.bin, self.folder = binaries(), Path(tempfile.mkdtemp(prefix="referee-postgres-"))
        folder = self.folder
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.runner: list[str] = []
        if os.geteuid() == 0:
            user = "postgres" if _exists("postgres") else "nobody"
            shutil.chown(folder, user)
            folder.chmod(0o700)
            self.runner = ["runuser", "-u", user, "--"]
        data = folder / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "referee", "-E", "UTF8", "--locale=C", "-N")
        self.start()
        self.numbers = itertools.count(1)

    def start(self) -> None:
        """The server up (again, after `halt`), on the same port and data."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-w", "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=500", "start")

    def halt(self) -> None:
        """The server down as in a restart (its connections cut), its data kept: `start` brings it back."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def _run(self, command: str, *arguments: str) -> None:
        subprocess.run([*self.runner, str(self.bin / command), *arguments], check=True, capture_output=True, cwd=self.folder)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://referee@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database: its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self.numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
        return True
    except KeyError:
        return False
