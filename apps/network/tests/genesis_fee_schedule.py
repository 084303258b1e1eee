"""The consensus node's genesis simple fee schedule (FEES.md §9), built as protobuf: the
schedule the fee estimation tests price with, and the 0.0.113 file of the demo data."""

from hiero_sdk_python.hapi.fees import fee_schedule_pb2
from hiero_sdk_python.hapi.services import basic_types_pb2

EXTRA_FEES = {
    "SIGNATURES": 100000,
    "STATE_BYTES": 1000000,
    "PROCESSING_BYTES": 10000,
    "KEYS": 100000000,
    "NFT_SERIALS": 8900000,
    "ACCOUNTS": 1000000,
    "TOKEN_TYPES": 1000000,
    "GAS": 852,
    "ALLOWANCES": 500000000,
    "TOKEN_ASSOCIATE": 500000000,
    "TOKEN_CREATE_WITH_CUSTOM_FEE": 10000000000,
    "TOKEN_MINT_NFT_BASE": 190000000,
    "TOKEN_MINT_NFT": 200000000,
    "NFT_UPDATE": 10000000,
    "AIRDROPS": 500000000,
    "HOOK_UPDATES": 10000000000,
    "RECORDS": 1000000,
    "TOKEN_TRANSFER_BASE": 9000000,
    "TOKEN_TRANSFER_BASE_CUSTOM_FEES": 19000000,
    "CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE": 19900000000,
    "CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE": 498300000,
    "CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES": 1000000,
    "CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES": 6800,
    "SCHEDULE_CREATE_CONTRACT_CALL_BASE": 900000000,
    "HOOK_EXECUTION": 50000000,
    "HOOK_SLOT_UPDATE": 50000000,
}

# High-volume curves: (max multiplier, [(utilization basis points, multiplier)]).
C1 = (200000, [(2, 4000), (3, 8000), (5, 10000), (7, 15000), (10, 20000), (15, 30000), (20, 40000), (50, 60000),
               (100, 80000), (200, 100000), (500, 150000), (1000, 200000), (10000, 200000)])
C2 = (100000, [(100, 4000), (150, 8000), (250, 10000), (350, 15000), (500, 20000), (750, 30000), (1000, 40000),
               (2500, 60000), (5000, 80000), (10000, 100000)])
C3 = (150000, [(40, 4000), (60, 8000), (100, 10000), (140, 15000), (200, 20000), (300, 30000), (400, 40000),
               (1000, 60000), (2000, 80000), (4000, 100000), (10000, 150000)])
C4 = (15000, [(2857, 4000), (4286, 8000), (7143, 10000), (10000, 15000)])
C5 = (80000, [(200, 4000), (300, 8000), (500, 10000), (700, 15000), (1000, 20000), (1500, 30000), (2000, 40000),
              (5000, 60000), (10000, 80000)])
APPROVE_ALLOWANCE_CURVE = (4000, [(10000, 4000)])

# service -> [(functionality, base fee, [(extra, included)], curve, options)]
SERVICES = {
    "Crypto": [
        ("CryptoCreate", 499000000, [("KEYS", 1), ("HOOK_UPDATES", 0)], C1),
        ("CryptoUpdate", 1200000, [("KEYS", 1), ("HOOK_UPDATES", 0)]),
        ("CryptoDelete", 49000000, []),
        ("CryptoTransfer", 0, [("TOKEN_TRANSFER_BASE", 0), ("TOKEN_TRANSFER_BASE_CUSTOM_FEES", 0),
                               ("HOOK_EXECUTION", 0), ("GAS", 0), ("ACCOUNTS", 2), ("TOKEN_TYPES", 1)]),
        ("CryptoApproveAllowance", 499000000, [("ALLOWANCES", 1)], APPROVE_ALLOWANCE_CURVE),
        ("CryptoDeleteAllowance", 499000000, [("ALLOWANCES", 1)]),
        ("CryptoGetAccountBalance", 0, [], None, {"free": True}),
        ("CryptoGetInfo", 84, []),
        ("CryptoGetAccountRecords", 84, []),
    ],
    "Consensus": [
        ("ConsensusCreateTopic", 99000000, [("KEYS", 0), ("CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE", 0)], C1),
        ("ConsensusUpdateTopic", 1200000, [("KEYS", 1)]),
        ("ConsensusSubmitMessage", 700000, [("CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES", 100),
                                            ("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE_BYTES", 1024),
                                            ("CONSENSUS_SUBMIT_MESSAGE_WITH_CUSTOM_FEE", 0)]),
        ("ConsensusDeleteTopic", 49000000, []),
        ("ConsensusGetTopicInfo", 84, []),
    ],
    "File": [
        ("FileCreate", 499000000, [("KEYS", 1), ("STATE_BYTES", 1000)], C1),
        ("FileUpdate", 499000000, [("KEYS", 1), ("STATE_BYTES", 1000)]),
        ("FileAppend", 499000000, [("STATE_BYTES", 1000)], C1),
        ("FileDelete", 69000000, []),
        ("FileGetContents", 84, [("PROCESSING_BYTES", 1000)]),
        ("FileGetInfo", 84, []),
    ],
    "Token": [
        ("TokenCreate", 9999000000, [("KEYS", 1), ("TOKEN_CREATE_WITH_CUSTOM_FEE", 0)], C2),
        ("TokenMint", 9000000, [("TOKEN_MINT_NFT_BASE", 0), ("TOKEN_MINT_NFT", 1)], C3),
        *[(name, 9000000, []) for name in ("TokenBurn", "TokenDelete", "TokenFreezeAccount",
                                            "TokenUnfreezeAccount", "TokenPause", "TokenUnpause")],
        ("TokenAssociateToAccount", 499000000, [("TOKEN_ASSOCIATE", 1)], C2),
        ("TokenAirdrop", 0, [("AIRDROPS", 0)], C2),
        ("TokenClaimAirdrop", 9000000, [], C4),
        ("TokenCancelAirdrop", 9000000, []),
        ("TokenDissociateFromAccount", 499000000, []),
        *[(name, 9000000, []) for name in ("TokenGrantKycToAccount", "TokenRevokeKycFromAccount", "TokenReject",
                                            "TokenAccountWipe", "TokenFeeScheduleUpdate")],
        ("TokenUpdate", 9000000, [("KEYS", 1)]),
        ("TokenUpdateNfts", 9000000, [("NFT_UPDATE", 1)]),
        ("TokenGetInfo", 84, []),
        ("TokenGetNftInfo", 84, []),
    ],
    "Schedule": [
        ("ScheduleCreate", 99000000, [("KEYS", 1), ("SCHEDULE_CREATE_CONTRACT_CALL_BASE", 0)], C2),
        ("ScheduleSign", 9000000, []),
        ("ScheduleDelete", 9000000, []),
        ("ScheduleGetInfo", 84, []),
    ],
    "Network": [
        ("GetVersionInfo", 84, []),
        ("TransactionGetRecord", 84, [("RECORDS", 1)]),
        ("TransactionGetReceipt", 0, [], None, {"free": True}),
        ("GetByKey", 84, []),
        ("SystemDelete", 0, []),
        ("SystemUndelete", 0, []),
    ],
    "Util": [("UtilPrng", 9000000, []), ("AtomicBatch", 9000000, [])],
    "Contract": [
        ("ContractCall", 0, [], None, {"node_network_fee_exempt": True}),
        ("ContractUpdate", 259000000, [("KEYS", 1), ("HOOK_UPDATES", 0)]),
        ("ContractDelete", 69000000, []),
        ("EthereumTransaction", 0, []),
        ("ContractCreate", 9999000000, [("HOOK_UPDATES", 0), ("KEYS", 1)], C5),
        ("HookStore", 49000000, [("HOOK_SLOT_UPDATE", 1)], C1),
        ("ContractCallLocal", 9000000, [("GAS", 0)]),
        ("ContractGetBytecode", 499000000, [("PROCESSING_BYTES", 20000)]),
        ("ContractGetInfo", 84, []),
    ],
    "AddressBook": [
        (name, 9000000, []) for name in ("NodeCreate", "NodeUpdate", "NodeDelete", "RegisteredNodeCreate",
                                         "RegisteredNodeUpdate", "RegisteredNodeDelete")
    ],
}


def genesis_fee_schedule() -> fee_schedule_pb2.FeeSchedule:
    schedule = fee_schedule_pb2.FeeSchedule()
    schedule.node.base_fee = 100000
    schedule.node.extras.add(name=fee_schedule_pb2.PROCESSING_BYTES, included_count=1350)
    schedule.node.extras.add(name=fee_schedule_pb2.SIGNATURES, included_count=1)
    schedule.network.multiplier = 9
    schedule.unreadable.fee = 100
    for name, fee in EXTRA_FEES.items():
        schedule.extras.add(name=fee_schedule_pb2.Extra.Value(name), fee=fee)
    for service_name, definitions in SERVICES.items():
        service = schedule.services.add(name=service_name)
        for functionality, base_fee, extras, *rest in definitions:
            curve, options = (rest + [None, None])[:2]
            definition = service.schedule.add(name=functionality, base_fee=base_fee, **(options or {}))
            for extra, included in extras:
                definition.extras.add(name=fee_schedule_pb2.Extra.Value(extra), included_count=included)
            if curve:
                set_high_volume_rates(definition, *curve)
    return schedule


def set_high_volume_rates(definition, max_multiplier: int, points: list[tuple[int, int]]) -> None:
    definition.high_volume_rates.max_multiplier = max_multiplier
    for basis_points, multiplier in points:
        definition.high_volume_rates.pricing_curve.piecewise_linear.points.add(
            utilization_basis_points=basis_points, multiplier=multiplier
        )


def service_definition(schedule: fee_schedule_pb2.FeeSchedule, functionality: str):
    return next(
        definition
        for service in schedule.services
        for definition in service.schedule
        if definition.name == basic_types_pb2.HederaFunctionality.Value(functionality)
    )
