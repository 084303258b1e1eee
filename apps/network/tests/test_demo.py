"""The demo data answers every GET network route on first start."""

from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo.json"


@pytest.fixture
def demo(db):
    call_command("loadfixtures", "--if-empty", DEMO)


def answer(path: str) -> dict:
    response = Client().get(path)
    assert response.status_code == 200, response.content
    return response.json()


def test_demo_exchange_rate(demo):
    assert answer("/api/v1/network/exchangerate") == {
        "current_rate": {"cent_equivalent": 285000, "expiration_time": 1795172400, "hbar_equivalent": 30000},
        "next_rate": {"cent_equivalent": 287400, "expiration_time": 1795176000, "hbar_equivalent": 30000},
        "timestamp": "1795168800.004113205",
    }


def test_demo_fees(demo):
    assert answer("/api/v1/network/fees") == {
        "fees": [
            {"gas": 89, "transaction_type": "ContractCall"},
            {"gas": 112, "transaction_type": "ContractCreate"},
            {"gas": 100, "transaction_type": "EthereumTransaction"},
        ],
        "timestamp": "1793491200.264018337",
    }


def test_demo_nodes(demo):
    nodes = answer("/api/v1/network/nodes")["nodes"]

    assert [(node["node_id"], node["node_account_id"], node["stake"]) for node in nodes] == [
        (0, "0.0.3", 4439530045000000),
        (1, "0.0.4", 4059619900000000),
        (2, "0.0.5", 2650004100000000),
    ]
    assert nodes[2]["service_endpoints"][0] == {"domain_name": "node2.aurora.example", "ip_address_v4": "", "port": 50211}


def test_demo_stake(demo):
    assert answer("/api/v1/network/stake")["stake_total"] == 11149154045000000


def test_demo_supply(demo):
    assert answer("/api/v1/network/supply") == {
        "released_supply": "4487693335690123",
        "timestamp": "1795168798.417000123",
        "total_supply": "5000000000000000000",
    }
