#!/usr/bin/env python3
"""The attacks of the hardening issue on `pathsmooth serve`, measured (docs/serve-limits.md).

    python3 docs/serve-attacks.py BINARY [memory|concurrent|cancel|disconnect|trickle|origin|message]...

Starts BINARY's playground on a free loopback port for each measurement (Linux: reads
/proc/<pid>/status and /proc/<pid>/stat) and prints what it saw. Standard library only.
"""

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

BIN = sys.argv[1]
TICK = os.sysconf("SC_CLK_TCK")


def serpentine():
    """1024 x 1024: free even rows, each odd row a wall with a gap at alternating ends."""
    rows = []
    for y in range(1024):
        if y % 2 == 0:
            rows.append("." * 1024)
        else:
            gap = 1023 if (y // 2) % 2 == 0 else 0
            rows.append("".join("." if x == gap else "@" for x in range(1024)))
    return "type octile\nheight 1024\nwidth 1024\nmap\n" + "\n".join(rows) + "\n"


SERPENTINE = serpentine()
CATMULL_ROM = {"map": SERPENTINE, "start": [0, 0], "goal": [0, 1022],
               "methods": ["catmull-rom"], "subdivisions": 31}
EVERY_METHOD = {"map": SERPENTINE, "start": [0, 0], "goal": [0, 1022]}
NORMAL = {"world": "demo", "start": [5, 5], "goal": [5, 74], "methods": ["shortcut"]}


class Server:
    def __init__(self, limit_kib=None, env=None):
        cmd = [BIN, "serve", "--bind", "127.0.0.1", "--port", "0"]
        if limit_kib:
            cmd = ["sh", "-c", 'ulimit -v "$0" && exec "$@"', str(limit_kib)] + cmd
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env={**os.environ, **(env or {})})
        line = self.p.stdout.readline()
        self.addr = line.strip().split("http://")[1].rstrip("/")
        self.host, port = self.addr.rsplit(":", 1)
        self.port = int(port)

    def status(self, key):
        text = open(f"/proc/{self.p.pid}/status").read()
        return int(re.search(key + r":\s+(\d+)", text).group(1))

    def cpu(self):
        """CPU seconds used so far (user + system)."""
        stat = open(f"/proc/{self.p.pid}/stat").read()
        f = stat[stat.rfind(")") + 2:].split()
        return (int(f[11]) + int(f[12])) / TICK

    def alive(self):
        return self.p.poll() is None

    def stop(self):
        self.p.kill()
        self.p.wait()
        return self.p.stderr.read()

    def raw(self, head, body=b"", timeout=120):
        """Sends a request (`head` without Host and Content-Length); status, body bytes."""
        s = socket.create_connection((self.host, self.port), timeout=timeout)
        s.sendall(head.encode() + f"Host: {self.addr}\r\nConnection: close\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        chunks = []
        try:
            while chunk := s.recv(1 << 20):
                chunks.append(chunk)
        except OSError:
            pass
        s.close()
        data = b"".join(chunks)
        head, _, rest = data.partition(b"\r\n\r\n")
        status = int(head.split()[1]) if head else 0
        return status, rest

    def plan(self, req, timeout=120):
        body = json.dumps(req).encode()
        return self.raw("POST /api/plan HTTP/1.1\r\nContent-Type: application/json\r\n",
                        body, timeout)


def idle_after(server, since):
    """Seconds from `since` until the server's CPU time stops growing (no growth over a
    second), and the CPU seconds it used meanwhile."""
    start = server.cpu()
    last, last_change = start, time.time()
    while time.time() - last_change < 1.0:
        time.sleep(0.1)
        now = server.cpu()
        if now > last:
            last, last_change = now, time.time()
    return round(last_change - since, 1), round(last - start, 2)


def memory():
    s = Server()
    t = time.time()
    status, body = s.plan(CATMULL_ROM)
    took = time.time() - t
    print(f"memory: one serpentine Catmull-Rom request: {status}, {len(body)} bytes in "
          f"{took:.2f} s; peak resident {s.status('VmHWM') / 1024:.0f} MiB")
    print("  ", body[:160].decode(errors="replace"))
    s.stop()


def concurrent(n=4, limit_gib=8):
    s = Server(limit_kib=limit_gib << 20)
    results = []
    threads = [threading.Thread(target=lambda: results.append(s.plan(CATMULL_ROM)[0]))
               for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if s.alive():
        after = s.plan(NORMAL)[0]
        print(f"concurrent: {n} at once under {limit_gib} GiB of address space: {sorted(results)}; "
              f"alive, peak resident {s.status('VmHWM') / 1024:.0f} MiB; a normal request "
              f"afterwards: {after}")
        s.stop()
    else:
        err = s.stop()
        why = [l for l in err.splitlines() if "memory allocation" in l or "panicked" in l]
        print(f"concurrent: {n} at once under {limit_gib} GiB: {sorted(results)}; the server died: "
              f"{why[:1]}")


def cancel():
    s = Server()
    t = time.time()
    status, body = s.plan(EVERY_METHOD)
    answered = time.time()
    stop, used = idle_after(s, answered)
    print(f"cancel: every method on the serpentine: {status} after {answered - t:.1f} s "
          f"({body[:80].decode(errors='replace')}); CPU idle {stop} s after the answer, "
          f"{used} CPU s used after it")
    s.stop()


def disconnect(after=2.0):
    s = Server()
    body = json.dumps(EVERY_METHOD).encode()
    c = socket.create_connection((s.host, s.port))
    c.sendall(f"POST /api/plan HTTP/1.1\r\nHost: {s.addr}\r\nContent-Type: application/json\r\n"
              f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    time.sleep(after)
    c.close()
    left = time.time()
    stop, used = idle_after(s, left)
    print(f"disconnect: client leaves {after} s into every method on the serpentine: CPU idle "
          f"{stop} s after it left, {used} CPU s used after it")
    s.stop()


def trickle(what, count=300, settle=3.0):
    s = Server()
    if what == "headers":
        head = f"GET /api/worlds HTTP/1.1\r\nHost: {s.addr}\r\nX-Slow: "
    else:
        head = (f"POST /api/plan HTTP/1.1\r\nHost: {s.addr}\r\nContent-Type: application/json\r\n"
                f"Content-Length: 100000\r\n\r\n")
    stop = threading.Event()
    closed = [0]

    def one():
        while not stop.is_set():
            try:
                c = socket.create_connection((s.host, s.port), timeout=30)
                c.sendall(head.encode())
                while not stop.wait(1.0):
                    c.sendall(b" ")
            except OSError:
                closed[0] += 1
            finally:
                try:
                    c.close()
                except Exception:
                    pass

    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for th in threads:
        th.start()
    time.sleep(settle)
    t = time.time()
    status, _ = s.plan(NORMAL, timeout=60)
    took = time.time() - t
    stop.set()
    print(f"trickle: {count} clients trickling their {what} at a byte a second: a normal "
          f"request {status} in {took:.2f} s ({closed[0]} trickling connections closed)")
    s.stop()


def origin():
    s = Server()
    body = json.dumps(NORMAL).encode()
    text = s.raw("POST /api/plan HTTP/1.1\r\nContent-Type: text/plain\r\n"
                 "Origin: http://evil.example\r\n", body)[0]
    form = s.raw("POST /api/plan HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n",
                 body)[0]
    sock = socket.create_connection((s.host, s.port))
    sock.sendall(f"GET /api/worlds/demo HTTP/1.1\r\nHost: evil.example:{s.port}\r\n"
                 f"Connection: close\r\n\r\n".encode())
    data = b""
    while chunk := sock.recv(1 << 16):
        data += chunk
    rebound = int(data.split()[1])
    print(f"origin: cross-origin text/plain POST {text}; form-encoded POST {form}; "
          f"GET /api/worlds/demo with Host evil.example {rebound}")
    s.stop()


def message():
    s = Server()
    junk = "type octile\n" + "x" * 8_000_000
    body = json.dumps({"map": junk}).encode()
    status, answer = s.raw("POST /api/map HTTP/1.1\r\nContent-Type: application/json\r\n", body)
    print(f"message: an 8 MB junk map: {status}, an answer of {len(answer)} bytes")
    s.stop()


RUN = {"memory": memory, "concurrent": concurrent, "cancel": cancel, "disconnect": disconnect,
       "trickle": lambda: (trickle("headers"), trickle("body")), "origin": origin,
       "message": message}
for name in sys.argv[2:] or RUN:
    RUN[name]()
