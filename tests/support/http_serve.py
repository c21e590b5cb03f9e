#!/usr/bin/env python3
"""http_serve.py DIR PORTFILE SECONDS: an HTTP server on 127.0.0.1 (a free
port, written to PORTFILE) for t_fetch.sh, stopped after SECONDS.  Serves
the files of DIR, and these answers a fetch must take or refuse:

  /chunked/NAME     NAME in chunks of 1000 bytes (Transfer-Encoding: chunked)
  /close/NAME       NAME with no Content-Length, the end being the close
  /redirect/NAME    302 to /NAME; /redirect-abs/NAME: to http://127.0.0.1:P/NAME
  /loop             302 to itself
  /https            302 to https://127.0.0.1/x
  /pprof-error      400 text/plain with X-Go-Pprof, as net/http/pprof refuses
  /noisy-error      500 text/plain holding ESC sequences and a long line
  /slow             the head, then nothing (a fetch must time out)
  /long-header      a header line of 20000 bytes
  /truncated/NAME   Content-Length 10 more than NAME, then the close
  /bad-chunk        a chunk size that is not hex
  /not-http         "SSH-2.0-x" and the close
  /seconds          a text body holding the query it was asked with
  /rel              302 to "cpu.pb.gz" (a path relative to /rel's directory)
  /not-modified     304 with a Location (not a redirect)
  /two-lengths      two different Content-Length headers
  /hex-prefix       a chunk size written 0x5
Every request's path and query is appended to DIR/../requests.log."""
import http.server
import os
import socketserver
import sys
import threading
import time

root, portfile, life = sys.argv[1], sys.argv[2], float(sys.argv[3])
log = os.path.join(os.path.dirname(os.path.abspath(root)), "requests.log")


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, code, body, ctype="application/octet-stream", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def file(self, name):
        p = os.path.join(root, os.path.basename(name))
        return open(p, "rb").read() if os.path.isfile(p) else None

    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        path, _, query = self.path.partition("?")
        parts = path.strip("/").split("/", 1)
        head, rest = parts[0], parts[1] if len(parts) > 1 else ""
        self.close_connection = True
        if head == "chunked" and self.file(rest) is not None:
            body = self.file(rest)
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(body), 1000):
                c = body[i:i + 1000]
                self.wfile.write(b"%x;ext=1\r\n%s\r\n" % (len(c), c))
            self.wfile.write(b"0\r\nX-Trailer: 1\r\n\r\n")
        elif head == "close" and self.file(rest) is not None:
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(self.file(rest))
        elif head == "redirect":
            self.send(302, b"", extra=[("Location", "/" + rest)])
        elif head == "redirect-abs":
            port = self.server.server_address[1]
            self.send(307, b"", extra=[("Location", "http://127.0.0.1:%d/%s" % (port, rest))])
        elif head == "loop":
            self.send(302, b"", extra=[("Location", "/loop")])
        elif head == "https":
            self.send(301, b"", extra=[("Location", "https://127.0.0.1/x")])
        elif head == "pprof-error":
            self.send(400, b"profile duration exceeds server's WriteTimeout\n",
                      "text/plain; charset=utf-8", [("X-Go-Pprof", "1")])
        elif head == "noisy-error":
            self.send(500, b"\x1b]0;owned\x07\x1b[2J oops " + b"x" * 5000, "text/plain")
        elif head == "slow":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            time.sleep(life)
        elif head == "long-header":
            self.send(200, b"x", extra=[("X-Long", "y" * 20000)])
        elif head == "truncated" and self.file(rest) is not None:
            body = self.file(rest)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body) + 10))
            self.end_headers()
            self.wfile.write(body)
        elif head == "bad-chunk":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"zz\r\nabc\r\n0\r\n\r\n")
        elif head == "not-http":
            self.wfile.write(b"SSH-2.0-x\r\n")
        elif head == "rel":
            self.send(302, b"", extra=[("Location", "cpu.pb.gz")])
        elif head == "not-modified":
            self.send_response(304)
            self.send_header("Location", "/cpu.pb.gz")
            self.end_headers()
        elif head == "two-lengths":
            self.send_response(200)
            self.send_header("Content-Length", "3")
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.write(b"abcd")
        elif head == "hex-prefix":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"0x5\r\nabcde\r\n0\r\n\r\n")
        elif head == "seconds":
            self.send(200, query.encode(), "text/plain")
        elif self.file(path) is not None:
            self.send(200, self.file(path))
        else:
            self.send(404, b"no such profile\n", "text/plain")


class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = S(("127.0.0.1", 0), H)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(portfile + ".tmp", portfile)
threading.Timer(life, srv.shutdown).start()
srv.serve_forever()
