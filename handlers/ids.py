"""Every action_id, callback_id and block_id the app uses, defined once."""
from __future__ import annotations

import enum


class Command(str, enum.Enum):
    RECOUNT = "/recount"


class Action(str, enum.Enum):
    RECORD_NOTICE = "notice.record"
    # requested recounts (1306(2))
    APPROVE_REQUEST = "request.approve"
    REJECT_REQUEST = "request.reject"
    WITHDRAW_REQUEST = "request.withdraw"  # the request's card (value: request): the requester took it back
    DETERMINE_COST = "case.cost"
    RECORD_COST_NOTICE = "case.cost_notice"
    RECORD_PAYMENT = "case.payment"
    START_COUNTING = "case.start_counting"
    # --- completion (handlers/completion.py, handlers/certificates.py): (6), (2)(c), (2)(d), (2)(f) ---
    COMPLETE_CASE = "case.complete"
    RECORD_RESULTS_NOTICE = "case.results_notice"
    RECORD_BALANCE = "case.balance"
    RECORD_MONEY_RETURNED = "case.money_returned"  # (2)(d)/(f): the refund or unused deposit handed back
    RECORD_DELIVERY = "certificate.delivery"
    NEW_CERTIFICATE_LINK = "certificate.new_link"
    RECORD_LOT = "case.lot"  # 1-13.5-1304: the drawing of lots for a tie the recount did not break
    RECORD_WAIVER = "case.waiver"  # 1-10.5-103: the automatic recount waived by written notice (handlers/waiver.py)
    # --- conduct (handlers/tally_*.py, handlers/assistants.py, handlers/evidence.py): (3), (4), (5) ---
    SET_UP_COUNT = "tally.set_up"  # the card: how the recount is tallied and the units expected
    ENTER_SHEET = "tally.enter"  # the card / a thread post: open the tally-sheet form of the case
    WITHDRAW_ENTRY = "tally.withdraw"  # the card (value: case) or a disagreement post (value: case:entry row)
    ASSISTANTS = "assistants.open"
    DEMAND_EVIDENCE = "evidence.demand"
    RECORD_PRODUCTION = "evidence.production"  # value: the demand's id
    # --- observers (handlers/observers.py): (1) ---
    SHARE_OBSERVER_LINK = "observers.share"  # the card (value: case): a read-only link, shown only to the clicker
    REVOKE_OBSERVER_LINK = "observers.revoke"  # the card (value: the link's id)
    # --- returns from a file (handlers/returns_upload.py) ---
    RETURNS_UPLOAD_OPEN = "returns.upload_open"  # step 1 of /recount returns: switch to uploading a file
    RETURNS_UPLOAD_BACK = "returns.upload_back"  # the preview: back to the form, with everything typed kept
    CHECK_ELECTION = "returns.check_election"  # an upload's record (value: the election): /recount check of it


class Shortcut(str, enum.Enum):
    REQUEST = "recount_request"  # global shortcut: enter a written recount request


class View(str, enum.Enum):
    RECORD_NOTICE = "notice.record"
    RETURNS_PICK = "returns.pick"
    RETURNS_ENTER = "returns.enter"
    RETURNS_UPLOAD = "returns.upload"  # a results file, the election it belongs to, how to read it
    RETURNS_UPLOAD_PREVIEW = "returns.upload_preview"  # what the file says; "Save as survey version N"
    MESSAGE = "message"  # an informational modal (errors, denials); nothing to submit
    # requested recounts (1306(2))
    REQUEST_PICK = "request.pick"
    REQUEST_ENTER = "request.enter"
    REQUEST_DECISION = "request.decision"
    REQUEST_WITHDRAWAL = "request.withdrawal"
    COST = "case.cost"
    COST_NOTICE = "case.cost_notice"
    PAYMENT = "case.payment"
    CANVASS = "election.canvass"
    # --- completion (handlers/completion.py, handlers/certificates.py) ---
    COMPLETE = "case.complete"
    RESULTS_NOTICE = "case.results_notice"
    BALANCE = "case.balance"
    MONEY_RETURNED = "case.money_returned"
    DELIVERY = "certificate.delivery"
    LOT = "case.lot"
    WAIVER = "case.waiver"
    # --- conduct (handlers/tally_*.py, handlers/assistants.py, handlers/evidence.py) ---
    SET_UP_COUNT = "tally.set_up"
    TALLY_SHEET = "tally.sheet"
    WITHDRAW_ENTRY = "tally.withdraw"
    ASSISTANTS = "assistants.record"
    DEMAND_EVIDENCE = "evidence.demand"
    RECORD_PRODUCTION = "evidence.production"


class Block(str, enum.Enum):
    NOTICE_GIVEN_BY = "notice.given_by"
    NOTICE_METHOD = "notice.method"
    NOTICE_GIVEN_AT = "notice.given_at"
    NOTICE_DETAILS = "notice.details"
    RETURNS_ELECTION = "returns.election"
    RETURNS_NEW_ELECTION_NAME = "returns.new_election_name"
    RETURNS_NEW_ELECTION_DATE = "returns.new_election_date"
    RETURNS_LOCAL_GOVERNMENT = "returns.local_government"
    RETURNS_GOVERNING_BODY = "returns.governing_body"
    RETURNS_NEW_ELECTION_LAW = "returns.new_election_law"  # the recount law a new election runs under (required)
    RETURNS_CONTEST = "returns.contest"
    RETURNS_NEW_CONTEST_NAME = "returns.new_contest_name"
    RETURNS_NEW_CONTEST_KIND = "returns.new_contest_kind"
    RETURNS_NEW_CONTEST_SEATS = "returns.new_contest_seats"
    RETURNS_NEW_CONTEST_CHOICES = "returns.new_contest_choices"
    RETURNS_UNIT = "returns.unit"
    RETURNS_REASON = "returns.reason"
    RETURNS_EVIDENCE = "returns.evidence"
    # + "<unit key>.<choice position>": one number input per choice. The unit key changes with the unit
    # shown, so Slack does not carry numbers typed for one unit over to the next (it keeps the state of
    # inputs whose block_id is unchanged across views.update).
    RETURNS_CHOICE_PREFIX = "returns.choice."
    # --- returns from a file (handlers/returns_upload.py); a new election reuses RETURNS_NEW_ELECTION_NAME,
    #     RETURNS_NEW_ELECTION_DATE, RETURNS_LOCAL_GOVERNMENT, RETURNS_GOVERNING_BODY and RETURNS_NEW_ELECTION_LAW ---
    RETURNS_UPLOAD_FILE = "returns.upload_file"  # file_input: the results file
    RETURNS_UPLOAD_ELECTION = "returns.upload_election"  # the election it belongs to (redraws the form)
    RETURNS_UPLOAD_KIND = "returns.upload_kind"  # optional: primary or general
    RETURNS_UPLOAD_SEATS = "returns.upload_seats"  # optional: CONTEST=N per line
    RETURNS_UPLOAD_AGAIN = "returns.upload_again"  # the preview's file_input: read another file instead
    # the preview: the seats of a contest whose file does not state them (number_input), + its index in "sa"
    RETURNS_UPLOAD_SEATS_FOR_PREFIX = "returns.upload_seats_for."
    # --- recount requests (handlers/requests.py, handlers/approvals.py): add "request.*" ids here ---
    REQUEST_CONTEST = "request.contest"
    REQUEST_REQUESTER_NAME = "request.requester_name"
    REQUEST_REQUESTER_CONTACT = "request.requester_contact"
    REQUEST_PARTY_KIND = "request.party_kind"
    # + "<contest id>": the choices differ per contest, so a choice picked for one contest is not carried
    # over to the next by views.update (Slack keeps the state of inputs whose block_id is unchanged).
    REQUEST_IN_FAVOR_OF_PREFIX = "request.in_favor_of."
    REQUEST_RECEIVED_ON = "request.received_on"
    REQUEST_REFERENCE = "request.reference"
    REQUEST_REQUESTER_USER = "request.requester_user"
    REQUEST_NOTARIZED = "request.notarized"  # checkboxes, where the election's law requires it (1-10.5-106(2))
    REQUEST_NOTE = "request.note"  # the decision's note
    REQUEST_WITHDRAWAL_NOTE = "request.withdrawal_note"  # how the requester withdrew the request
    REQUEST_OWN_REASON = "request.own_reason"  # why an official decides a request they entered (one-person office)
    # --- cost, payments, canvass (handlers/cost.py, handlers/cost_notice.py, handlers/payments.py,
    #     handlers/canvass.py): add "cost.*", "payment.*", "canvass.*" ids here ---
    # (2)(b)(II): the itemised cost. "gb" = members of the governing body (no 1-13.5-1301(4) floor for them).
    COST_STAFF_HOURS = "cost.staff_hours"
    COST_STAFF_RATE = "cost.staff_rate"
    COST_STAFF_DESCRIPTION = "cost.staff_description"
    COST_BOARD_PERSONS = "cost.board_persons"
    COST_BOARD_DAYS = "cost.board_days"
    COST_BOARD_RATE = "cost.board_rate"
    COST_BOARD_GB_MEMBERS = "cost.board_gb_members"
    COST_BOARD_GB_RATE = "cost.board_gb_rate"
    COST_ASSISTANTS_PERSONS = "cost.assistants_persons"
    COST_ASSISTANTS_DAYS = "cost.assistants_days"
    COST_ASSISTANTS_RATE = "cost.assistants_rate"
    COST_ASSISTANTS_GB_MEMBERS = "cost.assistants_gb_members"
    COST_ASSISTANTS_GB_RATE = "cost.assistants_gb_rate"
    COST_SUPPLIES = "cost.supplies"
    COST_SUPPLIES_DESCRIPTION = "cost.supplies_description"
    COST_OTHER_AMOUNT = "cost.other_amount"
    COST_OTHER_DESCRIPTION = "cost.other_description"
    # (2)(b)(III): the requester was notified of the cost.
    COST_NOTICE_METHOD = "cost.notice_method"
    COST_NOTICE_AT = "cost.notice_at"
    COST_NOTICE_BY = "cost.notice_by"
    COST_NOTICE_DETAILS = "cost.notice_details"
    # (2)(b)(IV), (2)(c): a payment from the requester.
    PAYMENT_AMOUNT = "payment.amount"
    PAYMENT_METHOD = "payment.method"
    PAYMENT_REFERENCE = "payment.reference"
    PAYMENT_RECEIVED_BY = "payment.received_by"
    PAYMENT_RECEIVED_ON = "payment.received_on"  # the day it was received: default today, never in the future
    # The canvass date, which fixes (2)(e)'s deadline.
    CANVASS_ELECTION = "canvass.election"
    CANVASS_DATE = "canvass.date"
    # --- completion (handlers/completion.py, handlers/certificates.py): add "complete.*", "results.*",
    #     "balance.*", "delivery.*" ids here ---
    COMPLETE_ACTUAL_COST = "complete.actual_cost"  # (2)(c), (d), (f): what the recount actually cost
    RESULTS_GIVEN_BY = "results.given_by"  # (6): the notice of the results to the governing body
    RESULTS_METHOD = "results.method"
    RESULTS_GIVEN_AT = "results.given_at"
    BALANCE_AMOUNT = "balance.amount"  # (2)(c): the balance due, collected on demand
    BALANCE_METHOD = "balance.method"
    BALANCE_REFERENCE = "balance.reference"
    BALANCE_RECEIVED_BY = "balance.received_by"
    RETURNED_BY = "returned.by"  # (2)(d)/(f): the money handed back to the requester
    RETURNED_METHOD = "returned.method"
    RETURNED_REFERENCE = "returned.reference"
    RETURNED_AT = "returned.at"
    WAIVED_BY = "waiver.by"  # 1-10.5-103: who waived the automatic recount, in what capacity, received when
    WAIVER_CAPACITY = "waiver.capacity"
    WAIVER_RECEIVED_ON = "waiver.received_on"
    WAIVER_REFERENCE = "waiver.reference"
    BALANCE_RECEIVED_ON = "balance.received_on"
    DELIVERY_BY = "delivery.by"  # (6): the certificate of election delivered to the candidate
    DELIVERY_METHOD = "delivery.method"
    DELIVERY_AT = "delivery.at"
    DELIVERY_DETAILS = "delivery.details"
    # (1): completing while notices are owed, only with the official's reason (rules.notices_owed)
    COMPLETE_NOTICES_REASON = "complete.notices_reason"
    # 1-13.5-1304: the drawing of lots (handlers/lot.py). A tied candidate's notice carries their position in the
    # tie ("lot.notice_at.0"), never their name.
    LOT_DRAWN_AT = "lot.drawn_at"
    LOT_PLACE = "lot.place"
    LOT_CONDUCTED_BY = "lot.conducted_by"
    LOT_WITNESSES = "lot.witnesses"
    LOT_METHOD = "lot.method"
    LOT_METHOD_DETAILS = "lot.method_details"
    LOT_WINNERS = "lot.winners"
    LOT_NOTICE_AT_PREFIX = "lot.notice_at."
    LOT_NOTICE_METHOD_PREFIX = "lot.notice_method."
    # --- conduct (handlers/tally_*.py, handlers/assistants.py, handlers/evidence.py): "tally.*",
    #     "assistant.*", "evidence.*" ids ---
    # (5): how the recount is tallied
    TALLY_METHOD = "tally.method"
    TALLY_UNITS = "tally.units"
    TALLY_DOUBLE_ENTRY = "tally.double_entry"
    TALLY_ELECTION_SHEETS = "tally.election_sheets"  # the sheets used at the election: never a recount sheet
    # (5): one tally sheet. The case select redraws the form (dispatch_action); the unit and the counts carry
    # the case id ("tally.unit.<case>", "tally.count.<case>.<choice position>") so Slack does not carry a
    # value chosen for one case over to the next.
    TALLY_CASE = "tally.case"
    TALLY_SHEET_ID = "tally.sheet_id"
    TALLY_UNIT_PREFIX = "tally.unit."
    TALLY_COUNT_PREFIX = "tally.count."
    # withdrawing an entry
    TALLY_ENTRY = "tally.entry"
    TALLY_REASON = "tally.reason"
    # (3): assistants, and the election's abstract preparers
    ABSTRACT_PREPARERS = "assistant.preparers"
    ASSISTANT_NAME = "assistant.name"
    ASSISTANT_CAPACITY = "assistant.capacity"
    ASSISTANT_REPLACES = "assistant.replaces"
    ASSISTANT_DAYS = "assistant.days"
    ASSISTANT_PAY = "assistant.pay"
    ASSISTANT_FLAGS = "assistant.flags"  # checkboxes: member of the governing body
    ASSISTANT_QUALIFIED = "assistant.qualified"
    ASSISTANT_SERVED = "assistant.served"
    # (4): evidence demanded and produced
    EVIDENCE_WHAT = "evidence.what"
    EVIDENCE_OF_WHOM = "evidence.of_whom"
    EVIDENCE_WHEN = "evidence.when"
    EVIDENCE_PRODUCED = "evidence.produced"
    EVIDENCE_PRODUCED_AT = "evidence.produced_at"

