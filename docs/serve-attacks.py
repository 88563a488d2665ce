#!/usr/bin/env python3
"""The attacks of the hardening issues on `pathsmooth serve`, measured (docs/serve-limits.md).

    python3 docs/serve-attacks.py BINARY [memory|concurrent|cancel|disconnect|trickle|origin|message|layered|fair|fair-full]...

Starts BINARY's playground on a free loopback port for each measurement (Linux: reads
/proc/<pid>/status and /proc/<pid>/stat) and prints what it saw. Standard library only.
Clients other than the measuring one connect from other loopback addresses (127.0.0.2,
…): the server counts clients by address.
"""

import collections
import json
import math
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
# What the page sends for the demo: its four default methods, radius 0.3.
DEMO_PLAN = {"world": "demo", "start": [5, 5], "goal": [5, 74], "radius": 0.3,
             "methods": ["astar", "shortcut-chaikin", "shortcut-catmull-rom", "corridor"]}


def layered_attack(shape, n=65000):
    """A `POST /api/layered` body with a navmesh of the issue's shapes, n polygons: `stacked`
    10 x 10 floors one over the other (5.7 MB), a `strip` of quads 0.01 wide and 10 long
    side by side, a `fan` of triangles round one vertex; start and goal at its two ends."""
    v, p = [], []
    if shape == "stacked":
        for k in range(n):
            b = len(v)
            v += [[0, k, 0], [10, k, 0], [10, k, 10], [0, k, 10]]
            p.append([b, b + 3, b + 2, b + 1])
        start, goal = [1, 0, 1], [9, 0, 9]
    elif shape == "strip":
        for i in range(n + 1):
            v += [[round(i * 0.01, 4), 0, 0], [round(i * 0.01, 4), 0, 10]]
        p = [[2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2] for i in range(n)]
        start, goal = [0.005, 0, 5], [n * 0.01 - 0.005, 0, 5]
    else:
        v.append([0, 0, 0])
        for k in range(n):
            t = 2 * math.pi * k / n
            v.append([round(100 * math.cos(t), 5), 0, round(100 * math.sin(t), 5)])
        p = [[0, 1 + (k + 1) % n, 1 + k] for k in range(n)]
        start, goal = [90, 0, 0.001], [-90, 0, 0.001]
    navmesh = json.dumps({"up": "y", "vertices": v, "polygons": p}, separators=(",", ":"))
    return {"navmesh": navmesh, "start": start, "goal": goal, "mesh": False}


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

    def raw(self, head, body=b"", timeout=120, source=None):
        """Sends a request (`head` without Host and Content-Length), from the loopback
        address `source` if given; status, body bytes."""
        s = socket.create_connection((self.host, self.port), timeout=timeout,
                                     source_address=(source, 0) if source else None)
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

    def plan(self, req, timeout=120, source=None):
        body = json.dumps(req).encode()
        return self.post("/api/plan", body, timeout, source)

    def post(self, path, body, timeout=120, source=None):
        return self.raw(f"POST {path} HTTP/1.1\r\nContent-Type: application/json\r\n",
                        body, timeout, source)


def idle_after(server, since, give_up=None):
    """Seconds from `since` until the server's CPU time stops growing (no growth over a
    second), and the CPU seconds it used meanwhile; `None` for the first when it still
    grows `give_up` seconds after `since`."""
    start = server.cpu()
    last, last_change = start, time.time()
    while time.time() - last_change < 1.0:
        if give_up and time.time() - since > give_up:
            return None, round(server.cpu() - start, 2)
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

    def one(i):
        # From a hundred addresses, three connections each: the per-client limit leaves
        # them to the connection policy, which this measures.
        source = (f"127.0.1.{1 + i % 100}", 0)
        while not stop.is_set():
            try:
                c = socket.create_connection((s.host, s.port), timeout=30,
                                             source_address=source)
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

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(count)]
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


def layered():
    """Two of the issue's layered navmeshes posted at once (the strip and the fan: minutes
    of work each), as two clients; their answers, the CPU after them, and a normal plan
    right after."""
    s = Server()
    results = {}

    def post(shape, source):
        body = json.dumps(layered_attack(shape)).encode()
        t = time.time()
        status, answer = s.post("/api/layered", body, source=source)
        results[shape] = (status, round(time.time() - t, 1), answer[:70].decode(errors="replace"))

    threads = [threading.Thread(target=post, args=(shape, f"127.0.0.{2 + i}"))
               for i, shape in enumerate(["strip", "fan"])]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    answered = time.time()
    t = time.time()
    status, _ = s.plan(DEMO_PLAN)
    normal = (status, round(time.time() - t, 2))
    stop, used = idle_after(s, answered, give_up=30)
    idle = f"idle {stop} s after the answers" if stop is not None else "still busy 30 s after the answers"
    print(f"layered: the strip and the fan of 65 000 polygons at once: {results}; a demo plan "
          f"right after: {normal[0]} in {normal[1]} s; CPU {idle}, {used} CPU s used after them")
    s.stop()


def percentile(values, q):
    """The nearest-rank percentile q (0-100) of `values`."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def fair(abusers=4, holders=250, probes=100, interval=0.2, limit=180.0, settle=5.0):
    """Clients that abuse the server, and a normal one measured. `abusers` clients
    (127.0.0.2, …) each loop heavy requests one after another (every method on the
    serpentine, and the layered fan, by turns); `holders` more connections from the same
    addresses each send one heavy request and then hold the connection (reconnecting a
    second after the server closes it); then the normal client (127.0.0.1) times
    `probes` demo plans (what the page sends) and `probes` GETs of the page, one after
    another `interval` seconds apart (each for at most `limit` seconds in all)."""
    s = Server()
    stop = threading.Event()
    heavy = [("/api/plan", json.dumps(EVERY_METHOD).encode()),
             ("/api/layered", json.dumps(layered_attack("fan")).encode())]
    answers = collections.Counter()

    def abuser(k):
        source, n = f"127.0.0.{2 + k}", 0
        while not stop.is_set():
            path, body = heavy[(k + n) % 2]
            n += 1
            try:
                status, _ = s.post(path, body, timeout=60, source=source)
            except OSError:
                status = "error"
            answers[status] += 1

    def holder(i):
        source = f"127.0.0.{2 + i % abusers}"
        path, body = heavy[0]
        head = (f"POST {path} HTTP/1.1\r\nHost: {s.addr}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        while not stop.is_set():
            try:
                c = socket.create_connection((s.host, s.port), timeout=10,
                                             source_address=(source, 0))
                c.settimeout(1.0)
                try:
                    c.sendall(head + body)
                except OSError:
                    pass
                while not stop.is_set():
                    try:
                        if not c.recv(1 << 16):
                            break
                    except socket.timeout:
                        continue
                c.close()
            except OSError:
                pass
            stop.wait(1.0)

    threads = [threading.Thread(target=abuser, args=(k,), daemon=True) for k in range(abusers)]
    threads += [threading.Thread(target=holder, args=(i,), daemon=True) for i in range(holders)]
    for th in threads:
        th.start()
    time.sleep(settle)
    cpu0 = s.cpu()

    def probe(kind, out):
        end = time.time() + limit
        for _ in range(probes):
            if time.time() > end:
                break
            t = time.time()
            try:
                if kind == "plan":
                    status, _ = s.plan(DEMO_PLAN, timeout=60)
                else:
                    status, _ = s.raw("GET / HTTP/1.1\r\n", timeout=60)
            except OSError:
                status = "error"
            out.append((time.time() - t, status))
            time.sleep(interval)

    plans, pages = [], []
    began = time.time()
    probers = [threading.Thread(target=probe, args=("plan", plans)),
               threading.Thread(target=probe, args=("page", pages))]
    for th in probers:
        th.start()
    for th in probers:
        th.join()
    stop.set()
    window = time.time() - began
    used = round(s.cpu() - cpu0, 1)

    def summary(what, runs):
        times = [t for t, _ in runs]
        bad = collections.Counter(st for _, st in runs if st != 200)
        return (f"{what}: {len(runs)}, p50 {percentile(times, 50) * 1000:.0f} ms, "
                f"p99 {percentile(times, 99) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
                + (f", not 200: {dict(bad)}" if bad else ""))

    print(f"fair: {abusers} clients looping heavy requests and {holders} connections holding one, "
          f"from {abusers} addresses; from a normal client, one after another:\n  "
          f"{summary('demo plan', plans)}\n  {summary('GET /', pages)}\n  "
          f"over {window:.0f} s; the abusers' answers meanwhile: {dict(answers)}; "
          f"server CPU {used} s")
    s.stop()


RUN = {"memory": memory, "concurrent": concurrent, "cancel": cancel, "disconnect": disconnect,
       "trickle": lambda: (trickle("headers"), trickle("body")), "origin": origin,
       "message": message, "layered": layered, "fair": fair,
       # More holders than the server has places for connections (256).
       "fair-full": lambda: fair(holders=300)}
for name in sys.argv[2:] or RUN:
    RUN[name]()
