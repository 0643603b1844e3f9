"""A throwaway pg_auto_failover formation for the tests and the failover benchmark: a
monitor and two PostgreSQL nodes (a primary and its synchronous standby) on loopback,
each on a port and in a folder of its own under /tmp, as the `postgres` account when run
as root (PostgreSQL refuses root). The monitor is tuned to give up a silent primary within
seconds (docs/deploy.md says why a club may do the same). Where Debian's
`postgresql-15-auto-failover` is missing, `Formation()` fails naming it (never a skip)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from postgres import _exists, binaries

# The monitor's settings that decide how soon a primary that stopped answering is given up
# (defaults: 5 s checks, 20 s to be unhealthy, 30 s for a demotion nobody confirms).
QUICK_FAILOVER = {"health_check_period": 1000, "health_check_timeout": 1000, "health_check_max_retries": 1,
                  "health_check_retry_delay": 500, "node_considered_unhealthy_timeout": 2000, "primary_demote_timeout": 5000}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Formation:
    """`Formation()` returns once node 1 is primary and node 2 its synchronous secondary."""

    def __init__(self) -> None:
        pg_autoctl = shutil.which("pg_autoctl")
        if not pg_autoctl:
            raise RuntimeError("pg_auto_failover is not installed: the failover tests need Debian's package "
                               "(apt-get install -y postgresql-15-auto-failover)")
        self.pg_ctl = str(binaries() / "pg_ctl")
        self.folder = Path(tempfile.mkdtemp(prefix="referee-failover-"))
        self.runner = ["env", f"XDG_CONFIG_HOME={self.folder}/config", f"XDG_DATA_HOME={self.folder}/share", pg_autoctl]
        if os.geteuid() == 0:
            user = "postgres" if _exists("postgres") else "nobody"
            shutil.chown(self.folder, user)
            self.runner = ["runuser", "-u", user, "--", *self.runner]
        self.folder.chmod(0o700)
        self.ports = {"monitor": free_port(), "node1": free_port(), "node2": free_port()}
        self.services: dict[str, subprocess.Popen[bytes]] = {}
        try:
            self._pg_autoctl("create", "monitor", *self._where("monitor"), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl")
            self._pg_autoctl("config", "set", "--pgdata", str(self.folder / "monitor"), "postgresql.listen_addresses", "127.0.0.1")
            self._run("monitor", "run", "--pgdata", str(self.folder / "monitor"))
            self._until(lambda: self._monitor_answers(), 30, "the monitor")
            import psycopg

            with psycopg.connect(self.monitor_url("postgres"), autocommit=True) as monitor:
                for name, value in QUICK_FAILOVER.items():
                    monitor.execute(f"ALTER SYSTEM SET pgautofailover.{name} = {value}")
                monitor.execute("SELECT pg_reload_conf()")
            for node in ("node1", "node2"):  # one after the other: the second copies the first
                self._run(node, "create", "postgres", *self._where(node), "--listen", "127.0.0.1", "--hostname", "127.0.0.1",
                          "--name", node, "--auth", "trust", "--no-ssl", "--monitor", self.monitor_url("autoctl_node"),
                          "--dbname", "referee", "--run")
                self._until(lambda: node in self.states(), 60, f"{node} registered")
            self._until(self._copied, 90, "a primary and a secondary")
        except BaseException:
            self.stop()
            raise

    def _where(self, name: str) -> list[str]:
        return ["--pgdata", str(self.folder / name), "--pgport", str(self.ports[name]), "--pgctl", self.pg_ctl]

    def _pg_autoctl(self, *arguments: str) -> None:
        done = subprocess.run([*self.runner, *arguments], capture_output=True, text=True, cwd=self.folder, timeout=120)
        if done.returncode:
            raise RuntimeError(f"pg_autoctl {' '.join(arguments[:2])} failed:\n{done.stderr[-2000:]}")

    def _run(self, name: str, *arguments: str) -> None:
        """A pg_autoctl service in a process group of its own: it and its PostgreSQL die together."""
        with open(self.folder / f"{name}.log", "ab") as log:
            self.services[name] = subprocess.Popen([*self.runner, *arguments], stdout=log, stderr=log, cwd=self.folder,
                                                   start_new_session=True)

    @staticmethod
    def _until(done: Callable[[], bool], within: float, what: str) -> None:
        deadline = time.monotonic() + within
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"pg_auto_failover: no {what} within {within:.0f} s")
            time.sleep(0.5)

    def _copied(self) -> bool:
        """Whether node 2 is node 1's secondary; else node 1 is asked for a checkpoint, which
        the copy waits for (a spread one takes minutes)."""
        import psycopg

        if self.states() == {"node1": "primary", "node2": "secondary"}:
            return True
        try:
            with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.ports['node1']}/postgres", connect_timeout=2) as node1:
                node1.execute("CHECKPOINT")
        except psycopg.Error:
            pass  # not up yet
        return False

    def monitor_url(self, user: str) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.ports['monitor']}/pg_auto_failover?sslmode=disable"

    def _monitor_answers(self) -> bool:
        import psycopg

        try:
            psycopg.connect(self.monitor_url("postgres"), connect_timeout=2).close()
            return True
        except psycopg.Error:
            return False

    def states(self) -> dict[str, str]:
        """Each node's state as the monitor has it, where it is also the goal (else "…")."""
        import psycopg

        with psycopg.connect(self.monitor_url("postgres"), connect_timeout=3) as monitor:
            rows = monitor.execute("SELECT nodename, reportedstate, goalstate FROM pgautofailover.node").fetchall()
        return {str(name): str(state) if state == goal else "…" for name, state, goal in rows}

    @property
    def url(self) -> str:
        """The app's URL: both nodes, libpq picks the one that takes writes."""
        return (f"postgresql://postgres@127.0.0.1:{self.ports['node1']},127.0.0.1:{self.ports['node2']}/referee"
                "?target_session_attrs=read-write")

    def primary(self) -> str:
        return next(name for name, state in self.states().items() if state in ("primary", "wait_primary", "single"))

    def kill(self, node: str) -> None:
        """The node's machine dies: kill -9 of its postmaster and of the pg_autoctl keeper that
        would start it again in place (no failover then)."""
        os.killpg(self.services[node].pid, signal.SIGKILL)
        self.services[node].wait()

    def stop(self) -> None:
        for service in self.services.values():
            if service.poll() is None:
                os.killpg(service.pid, signal.SIGKILL)
                service.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
