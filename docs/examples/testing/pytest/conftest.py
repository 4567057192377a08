# A Remit sandbox for the test session: `npx remit-sandbox` (from @remit/testing, a dev dependency
# of the project), its JSON line read, stopped with SIGTERM at the end. Standard library only.
import base64
import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest

WEBHOOKS_PORT = os.environ.get("REMIT_WEBHOOKS_PORT", "4011")


class Remit:
    def __init__(self, printed):
        self.url = printed["url"]
        self.merchant_key = None
        self.webhooks_url = printed["webhooksUrl"]
        creds = printed["credentials"]
        token = base64.b64encode(f'{creds["clientId"]}:{creds["secretKey"]}'.encode()).decode()
        self.auth = f"Basic {token}"

    def call(self, method, path, body=None):
        """(status, JSON answer) of one call to the sandbox."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("authorization", self.auth)
        req.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=130) as res:
                return res.status, json.load(res)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def api(self, path, body):
        return self.call("POST", "/api/v1" + path, {"merchant_key": self.merchant_key, **body})

    def next_webhook(self, event_type, timeout_ms=10000):
        status, answer = self.call("GET", f"/testing/webhooks/next?type={event_type}&timeout_ms={timeout_ms}")
        assert status == 200, answer
        return answer["data"]


@pytest.fixture(scope="session")
def remit():
    proc = subprocess.Popen(
        ["npx", "remit-sandbox", "--no-merchant", "--webhooks-port", WEBHOOKS_PORT],
        stdout=subprocess.PIPE,
        text=True,
    )
    yield Remit(json.loads(proc.stdout.readline()))
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(autouse=True)
def empty_sandbox(remit):
    """Each test: the sandbox emptied (the credentials stay), and a new merchant."""
    remit.call("POST", "/testing/reset")
    status, merchant = remit.call("POST", "/testing/merchants", {"business_name": "Acme Supplies LLC"})
    assert status == 200, merchant
    remit.merchant_key = merchant["data"]["merchant_key"]
