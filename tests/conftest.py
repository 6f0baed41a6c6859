from __future__ import annotations

import pytest

from tests.support.databases import backends, fresh_database_url, migrated_database


@pytest.fixture(params=backends())
def backend(request) -> str:
    return request.param


@pytest.fixture
def db(backend, tmp_path):
    """A migrated, empty database on each backend under test."""
    with migrated_database(backend, tmp_path) as database:
        yield database


@pytest.fixture
def empty_database_url(backend, tmp_path):
    with fresh_database_url(backend, tmp_path) as url:
        yield url
