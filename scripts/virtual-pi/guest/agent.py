"""The test's hands inside the virtual Pi: a root process answering the host
over a virtio-serial port (virtual-pi-agent.service starts it at boot).

One JSON object a line each way. Requests:
  {"op": "hello"}                          -> {"boot_id": ...}
  {"op": "run", "argv": [...], "timeout": s, "input": text}
                                           -> {"rc", "out", "err"}
  {"op": "read", "files": [[path, offset], ...]}
                                           -> {"data": [base64 or null, ...]}
      each file from its offset, one after the other (null: missing)
  {"op": "pulls", "steps": [[line, "pull-up" | "pull-down", seconds], ...]}
      writes each line's gpio-sim pull attribute, then waits the seconds:
      the timing of presses, bounce and quadrature is kept here, in the
      guest, not at the mercy of the serial line, at a real-time priority
      (the service's own work must not stretch a bounce past the debounce
      time). Answers {"longest_bounce": s}: the longest step of under 10 ms
      asked for, as it really lasted.
Every answer also carries "ok": true, or "ok": false and "error".
Only standard library: the guest's python3 runs it, not the program's venv.
"""

import base64
import json
import os
import subprocess
import time

PORT = "/dev/virtio-ports/virtual-pi"
READ_LIMIT = 1 << 20


def gpio_sim_dir():
    with open("/run/virtual-pi/gpio-sim") as f:
        return f.read().strip()


def read(path, offset):
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return base64.b64encode(f.read(READ_LIMIT)).decode()
    except FileNotFoundError:
        return None


def answer(request):
    op = request["op"]
    if op == "hello":
        with open("/proc/sys/kernel/random/boot_id") as f:
            return {"boot_id": f.read().strip()}
    if op == "run":
        done = subprocess.run(
            request["argv"],
            input=request.get("input"),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=request.get("timeout", 300),
        )
        return {"rc": done.returncode, "out": done.stdout, "err": done.stderr}
    if op == "read":
        return {"data": [read(path, offset) for path, offset in request["files"]]}
    if op == "pulls":
        base = gpio_sim_dir()
        longest_bounce = 0.0
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        try:
            for line, pull, seconds in request["steps"]:
                started = time.monotonic()
                with open(f"{base}/sim_gpio{line}/pull", "w") as f:
                    f.write(pull)
                if seconds:
                    time.sleep(seconds)
                if seconds < 0.01:
                    longest_bounce = max(longest_bounce, time.monotonic() - started)
        finally:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        return {"longest_bounce": longest_bounce}
    raise ValueError(f"unknown op {op!r}")


def main():
    # One descriptor for both ways: a virtio port can be open only once.
    port = os.open(PORT, os.O_RDWR)
    pending = b""
    while True:
        chunk = os.read(port, 65536)
        if not chunk:
            # No host on the other end yet: the port reads empty.
            time.sleep(0.1)
            continue
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                request = json.loads(line)
                reply = {"ok": True, "id": request.get("id"), **answer(request)}
            except Exception as error:  # the host reports it; the agent keeps serving
                reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
            out = memoryview(json.dumps(reply).encode() + b"\n")
            while out:
                out = out[os.write(port, out) :]


if __name__ == "__main__":
    main()
