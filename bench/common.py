"""What bench/serve.py and bench/judgehosts.py share: the mini-nim
submissions every team sends, the contest folder and judge.toml they judge
with, the Contest API's requests, and percentiles."""
import base64
import io
import os
import re
import urllib.error
import urllib.request
import zipfile
from datetime import datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ACCEPTED_PY = 'a, b = map(int, input().split())\nprint("Yes" if a != b else "No")\n'
WRONG_PY = 'a, b = map(int, input().split())\nprint("Yes" if (a + b) % 2 else "No")\n'
ACCEPTED_C = ('#include <stdio.h>\nint main(void){long a,b;if(scanf("%ld %ld",&a,&b)!=2)return 1;'
              'puts(a!=b?"Yes":"No");return 0;}\n')


def files_of(team, tag):
    """A team's three submissions: C accepted, Python wrong, Python accepted."""
    mark = f"run {tag} team {team}"
    return [
        ("nim.c", "c", f"/* {mark} */\n" + ACCEPTED_C),
        ("nim.py", "python", f"# {mark}\n" + WRONG_PY),
        ("nim2.py", "python", f"# {mark}\n" + ACCEPTED_PY),
    ]


def pct(values, p):
    values = sorted(values)
    if not values:
        return None
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def request(url, auth=None, body=None, method=None):
    """One Contest API request (a POST when it has a body): status, bytes."""
    req = urllib.request.Request(url, data=body, method=method)
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def zip_b64(name, text):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(name, text)
    return base64.b64encode(buf.getvalue()).decode()


def write_contest(dir_, teams, start_offset):
    """contest.toml for mini-nim and `teams` teams (`teamI`, password `pwI`),
    started `start_offset` seconds from now."""
    mini = os.path.join(ROOT, "tests/fixtures/problems/mini-nim")
    start = (datetime.now(timezone.utc) + timedelta(seconds=start_offset)).strftime("%Y-%m-%dT%H:%M:%SZ")
    team_list = "".join(f'\n[[teams]]\nid = "team{i}"\nname = "Team {i}"\npassword = "pw{i}"\n'
                        for i in range(teams))
    os.makedirs(dir_, exist_ok=True)
    with open(os.path.join(dir_, "contest.toml"), "w") as f:
        f.write(f'title = "Bench"\nid = "bench"\nproblems = ["{mini}"]\nstart = {start}\n'
                f'languages = ["c", "python"]\n[server]\nsubmissions_per_minute = 100\n'
                f'[jury]\npassword = "jury"\n{team_list}')


def config(ws):
    """The repository's judge.toml with its cache in `ws`, written there."""
    path = os.path.join(ws, "judge.toml")
    with open(os.path.join(ROOT, "judge.toml")) as f:
        text = f.read()
    text = re.sub(r'(?m)^cache_dir\s*=.*$', '', text)
    with open(path, "w") as f:
        f.write(f'cache_dir = "{os.path.join(ws, "cache")}"\n' + text)
    return path
