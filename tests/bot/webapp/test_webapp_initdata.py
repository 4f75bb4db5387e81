"""The live seat's init data check (bot.webapp.initdata) against data signed as Telegram
documents it (support.webapp.init_data), and every way it can be wrong."""

from urllib.parse import parse_qsl, urlencode

import pytest
from support.webapp import init_data, sign

from bot.webapp.initdata import BadInitData, validate

TOKEN = "123456:" + "A" * 35
OTHER = "654321:" + "B" * 35
NOW = 1_800_000_000.0
DAY = 86400.0


def check(data: str, token: str = TOKEN, now: float = NOW):
    return validate(data, token, max_age=DAY, now=now)


def test_a_signed_fresh_user_is_accepted():
    user = check(init_data(TOKEN, 42, "Alice 🀄", lang="en", auth_date=NOW - 5))
    assert (user.id, user.first_name, user.language_code) == (42, "Alice 🀄", "en")


def test_a_fixed_vector():
    """One vector computed by hand with hmac (HMAC_SHA256("WebAppData", token) as the key)."""
    import hashlib
    import hmac
    fields = {"auth_date": "1799999990", "user": '{"id":7,"first_name":"Bo"}'}
    check_string = "auth_date=1799999990\nuser={\"id\":7,\"first_name\":\"Bo\"}"
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check_string.encode(), hashlib.sha256).hexdigest()
    assert check(urlencode(fields)).id == 7


def test_another_bots_signature_is_refused():
    with pytest.raises(BadInitData):
        check(init_data(OTHER, 42, auth_date=NOW))


def test_stale_and_future_dates_are_refused():
    assert check(init_data(TOKEN, 42, auth_date=NOW - DAY + 1)).id == 42
    with pytest.raises(BadInitData):
        check(init_data(TOKEN, 42, auth_date=NOW - DAY - 1))
    with pytest.raises(BadInitData):
        check(init_data(TOKEN, 42, auth_date=NOW + 3600))


def tampered(data: str, key: str, value: str) -> str:
    pairs = dict(parse_qsl(data))
    pairs[key] = value
    return urlencode(pairs)


@pytest.mark.parametrize("change", [
    ("user", '{"id":43,"first_name":"Alice","language_code":"zh-hans"}'),  # another user
    ("auth_date", str(int(NOW))),  # a fresher date than signed
    ("hash", "0" * 64),
    ("hash", ""),
    ("query_id", "other"),
])
def test_any_change_is_refused(change):
    data = init_data(TOKEN, 42, auth_date=NOW - 10)
    with pytest.raises(BadInitData):
        check(tampered(data, *change))


@pytest.mark.parametrize("data", ["", "garbage", "hash=abc", "a=1&a=2", "%zz"])
def test_malformed_is_refused(data):
    with pytest.raises(BadInitData):
        check(data)


def test_a_key_given_twice_is_refused_even_if_one_copy_is_signed():
    data = init_data(TOKEN, 42, auth_date=NOW - 10)
    with pytest.raises(BadInitData):
        check(data + "&user=" + '{"id":1}')


def test_signed_without_user_is_refused():
    with pytest.raises(BadInitData):
        check(sign(TOKEN, {"auth_date": str(int(NOW))}))


def test_rate_limit_per_user():
    from bot.webapp.limits import RateLimit
    now = [0.0]
    limit = RateLimit(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [limit.allow(1) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(2)  # another user has his own bucket
    now[0] += 0.5  # one request's worth refilled
    assert [limit.allow(1) for _ in range(2)] == [True, False]
