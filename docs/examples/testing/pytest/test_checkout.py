# Remit's sandbox from pytest, over HTTP only: forced declines, payment.failed, the SMS of a
# payment request, the clock, and an event sent on demand (docs/testing.md).
from conftest import WEBHOOKS_PORT

CARD = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2035, "cvc": "123", "zip": "94105"}


def charge(remit, order_id, amount):
    status, customer = remit.api("/customers/add", {"first_name": "Ada", "card": CARD})
    assert status == 200, customer
    return remit.api(f"/customers/charge/{customer['data']['customer_id']}", {"amount": amount, "order_id": order_id})


def test_a_declined_card_sends_payment_failed(remit):
    remit.call("POST", "/testing/fail", {"outcome": "insufficient_funds"})
    status, declined = charge(remit, "order-1", 25)
    assert (status, declined["code"]) == (402, "insufficient_funds")
    event = remit.next_webhook("payment.failed")
    assert event["data"]["transaction_id"] == declined["transaction_id"]
    assert event["data"]["code"] == "insufficient_funds"


def test_a_payment_request_reaches_the_customer_by_sms(remit):
    status, request = remit.api("/requests", {"amount": "40.00", "order_id": "order-2", "phone_number": "(415) 555-0123"})
    assert status == 200, request
    status, sms = remit.call("GET", "/testing/messages/next?to=%2B14155550123&timeout_ms=10000")
    assert status == 200
    assert sms["data"]["links"][0] == request["data"]["pay_link"]


def test_the_clock_and_an_event_on_demand(remit):
    status, moved = remit.call("POST", "/testing/clock/advance", {"by": "25h"})
    assert (status, moved["data"]["advanced_ms"]) == (200, 25 * 3600 * 1000)
    status, sent = remit.call("POST", "/testing/trigger", {"event_type": "ach.update", "merchant_key": remit.merchant_key})
    assert status == 200, sent
    assert remit.next_webhook("ach.update")["id"] == sent["data"]["event_id"]
    assert remit.webhooks_url == f"http://127.0.0.1:{WEBHOOKS_PORT}/webhooks"
