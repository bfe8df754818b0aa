"""A real headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: stdlib only), for tests/html/check_page.py and
bench/html-open. Chromium(...) starts it with a page target attached;
call() sends one command and returns its result, keeping the events that
came meanwhile in .events; close() ends it and removes its profile."""
import json, os, shutil, subprocess, sys, tempfile


class Chromium:
    def __init__(self, width=1200, height=900):
        self.r_ours, w_chrome = os.pipe()   # chromium writes on its fd 4
        r_chrome, self.w_ours = os.pipe()   # chromium reads on its fd 3
        self.profile = tempfile.mkdtemp(prefix="cb-chromium.")

        def child_fds():
            # through spare numbers first: the pipes may already sit on 3 and 4
            a, b = os.dup(r_chrome), os.dup(w_chrome)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--window-size=%d,%d" % (width, height), "--no-first-run", "about:blank"],
            close_fds=False, preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_chrome)
        os.close(w_chrome)
        os.set_inheritable(self.r_ours, False)
        os.set_inheritable(self.w_ours, False)
        self.buf, self.seq, self.events = b"", 0, []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def recv(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r_ours, 1 << 20)
            if not chunk:
                sys.exit("cdp: chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, **params):
        """One command on the page's session (before it exists: the browser)."""
        self.seq += 1
        m = {"id": self.seq, "method": method, "params": params}
        if getattr(self, "session", None):
            m["sessionId"] = self.session
        os.write(self.w_ours, json.dumps(m).encode() + b"\0")
        while True:
            r = self.recv()
            if r.get("id") == self.seq:
                if "error" in r:
                    sys.exit("cdp: %s: %s" % (method, r["error"]))
                return r["result"]
            self.events.append(r)

    def value(self, expression):
        """What a JavaScript expression evaluates to in the page."""
        return self.call("Runtime.evaluate", expression=expression,
                         returnByValue=True)["result"].get("value")

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
