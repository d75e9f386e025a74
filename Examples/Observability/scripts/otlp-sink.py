#!/usr/bin/env python3
"""A stand-in for an OpenTelemetry collector: accepts OTLP/HTTP exports (POST /v1/traces, …) on a port and appends
each request's body, decompressed, to a file. The check reads the span names out of it."""
import gzip
import http.server
import sys

port, out = int(sys.argv[1]), sys.argv[2]


class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        with open(out, "ab") as file:
            file.write(self.path.encode() + b"\n" + body + b"\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), Sink).serve_forever()
