"""Slack listeners, split by surface, all declared through `handlers.registry`."""
from __future__ import annotations

from handlers.registry import Registry


def build_registry() -> Registry:
    from handlers import (
        approvals,
        assistants,
        canvass,
        certificates,
        check,
        commands,
        completion,
        cost,
        cost_notice,
        counting,
        evidence,
        home,
        lot,
        money_returned,
        notices,
        observers,
        payments,
        requests,
        returns,
        tally_disagreement,
        tally_setup,
        tally_sheets,
        waiver,
        withdrawals,
    )

    registry = Registry()
    commands.register(registry)
    check.register(registry)
    notices.register(registry)
    returns.register(registry)
    requests.register(registry)
    approvals.register(registry)
    withdrawals.register(registry)
    cost.register(registry)
    cost_notice.register(registry)
    payments.register(registry)
    counting.register(registry)
    canvass.register(registry)
    completion.register(registry)
    certificates.register(registry)
    money_returned.register(registry)
    lot.register(registry)
    waiver.register(registry)
    observers.register(registry)
    tally_setup.register(registry)
    tally_sheets.register(registry)
    tally_disagreement.register(registry)
    assistants.register(registry)
    evidence.register(registry)
    home.register(registry)
    return registry
