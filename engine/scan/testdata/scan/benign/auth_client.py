"""Small client for the internal auth service.

The service issues short-lived JWTs; we never store them on disk. Tokens are
kept in memory and refreshed five minutes before they expire.
"""

import os
import time
from dataclasses import dataclass

import requests

DEFAULT_TIMEOUT = 10  # seconds
SECRET_HEADER = "X-Client-Secret"


@dataclass
class Session:
    access_token: str
    expires_at: float

    def expired(self, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return now >= self.expires_at - 300


def login(base_url: str) -> Session:
    client_id = os.environ["AUTH_CLIENT_ID"]
    client_secret = os.environ["AUTH_CLIENT_SECRET"]  # never log this
    resp = requests.post(
        f"{base_url}/oauth/token",
        data={"grant_type": "client_credentials", "client_id": client_id},
        headers={SECRET_HEADER: client_secret},
        timeout=DEFAULT_TIMEOUT,
    )
    resp.raise_for_status()
    body = resp.json()
    return Session(access_token=body["access_token"], expires_at=time.time() + body["expires_in"])


def authorized_headers(session: Session) -> dict[str, str]:
    # The bearer token goes in the Authorization header, not the URL.
    return {"Authorization": f"Bearer {session.access_token}"}


if __name__ == "__main__":
    s = login(os.environ.get("AUTH_URL", "http://localhost:8080"))
    print("token expires at", time.ctime(s.expires_at))
