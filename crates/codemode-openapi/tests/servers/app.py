"""The FastAPI app of the real-server tests (crates/codemode-openapi/tests/real_servers.rs and
crates/codemode-cli/tests/openapi.rs): path, query, header and cookie parameters, JSON and form
bodies, 204, text, 4xx with bodies, bearer/basic/apiKey auth per route, OAuth2 client credentials
(a token endpoint and a route that takes its tokens), a multipart-only upload (skipped), a
redirect. Its own
/openapi.json (FastAPI's, OpenAPI 3.1, no `servers`) is what the tests load.

Run: python -m uvicorn app:app --app-dir <this directory> --host 127.0.0.1 --port N
"""

from typing import Annotated, Optional

import base64

from fastapi import (
    Cookie,
    Depends,
    FastAPI,
    Form,
    Header,
    HTTPException,
    Request,
    Response,
    Security,
    UploadFile,
)
from fastapi.openapi.models import OAuthFlows
from fastapi.responses import PlainTextResponse, RedirectResponse
from fastapi.security import (
    APIKeyHeader,
    HTTPAuthorizationCredentials,
    HTTPBasic,
    HTTPBasicCredentials,
    HTTPBearer,
    OAuth2,
)
from pydantic import BaseModel

app = FastAPI(title="codemode test API", version="1")

ITEMS: dict[int, dict] = {1: {"id": 1, "name": "lamp", "price": 12.5, "tags": ["home"]}}


class NewItem(BaseModel):
    name: str
    price: float
    tags: list[str] = []


@app.get("/items/{item_id}", operation_id="items.get")
def get_item(
    item_id: int,
    q: Optional[str] = None,
    limit: int = 10,
    x_trace: Annotated[Optional[str], Header()] = None,
    session: Annotated[Optional[str], Cookie()] = None,
):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    return {"item": ITEMS[item_id], "q": q, "limit": limit, "trace": x_trace, "session": session}


@app.get("/items", operation_id="items.list")
def list_items(tag: Optional[str] = None):
    return [i for i in ITEMS.values() if tag is None or tag in i["tags"]]


@app.post("/items", operation_id="items.create", status_code=201)
def create_item(item: NewItem):
    new_id = max(ITEMS) + 1
    ITEMS[new_id] = {"id": new_id, **item.model_dump()}
    return ITEMS[new_id]


@app.delete("/items/{item_id}", operation_id="items.delete", status_code=204)
def delete_item(item_id: int):
    ITEMS.pop(item_id, None)
    return Response(status_code=204)


@app.post("/login", operation_id="forms.login")
def login(username: Annotated[str, Form()], password: Annotated[str, Form()]):
    return {"user": username, "password_length": len(password)}


@app.get("/hello", operation_id="text.hello", response_class=PlainTextResponse)
def hello(name: str = "world"):
    return f"hello {name}"


@app.get("/fail/{code}", operation_id="errors.status")
def fail(code: int):
    raise HTTPException(status_code=code, detail=f"failed on purpose with {code}")


bearer = HTTPBearer()
basic = HTTPBasic()
api_key = APIKeyHeader(name="X-API-Key")


@app.get("/secure/bearer", operation_id="auth.bearer")
def secure_bearer(cred: Annotated[HTTPAuthorizationCredentials, Depends(bearer)]):
    if cred.credentials != "tok-123":
        raise HTTPException(status_code=401, detail="wrong token")
    return {"ok": "bearer"}


@app.get("/secure/basic", operation_id="auth.basic")
def secure_basic(cred: Annotated[HTTPBasicCredentials, Depends(basic)]):
    if (cred.username, cred.password) != ("ann", "pw-456"):
        raise HTTPException(status_code=401, detail="wrong user or password")
    return {"ok": "basic", "user": cred.username}


@app.get("/secure/key", operation_id="auth.key")
def secure_key(key: Annotated[str, Depends(api_key)]):
    if key != "key-789":
        raise HTTPException(status_code=401, detail="wrong key")
    return {"ok": "key"}


# OAuth2 client credentials: `token` is relative (FastAPI's usual form), resolved against the
# server URL. The client authenticates with HTTP Basic (RFC 6749 2.3.1); each token names the
# count of tokens issued so far and the scope asked for, so a test can see the cache at work.
oauth2 = OAuth2(
    flows=OAuthFlows(
        clientCredentials={"tokenUrl": "token", "scopes": {"items:read": "read items"}}
    )
)
ISSUED = [0]


@app.post("/token", include_in_schema=False)
def token(
    request: Request,
    grant_type: Annotated[str, Form()],
    scope: Annotated[str, Form()] = "",
):
    want = "Basic " + base64.b64encode(b"app-1:cc-s3cret").decode()
    if request.headers.get("authorization") != want:
        raise HTTPException(status_code=401, detail={"error": "invalid_client"})
    if grant_type != "client_credentials":
        raise HTTPException(status_code=400, detail={"error": "unsupported_grant_type"})
    ISSUED[0] += 1
    return {"access_token": f"cc-{ISSUED[0]}-{scope}", "token_type": "Bearer", "expires_in": 3600}


@app.get("/secure/oauth", operation_id="auth.oauth")
def secure_oauth(authorization: Annotated[str, Security(oauth2, scopes=["items:read"])]):
    if not authorization.startswith("Bearer cc-"):
        raise HTTPException(status_code=401, detail="not a client-credentials token")
    return {"ok": "oauth", "token": authorization.removeprefix("Bearer ")}


@app.post("/upload", operation_id="files.upload")
def upload(file: UploadFile):
    return {"name": file.filename}


@app.get("/old/{item_id}", operation_id="redirect.old")
def old(item_id: int):
    return RedirectResponse(url=f"/items/{item_id}", status_code=307)
