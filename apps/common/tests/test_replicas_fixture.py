"""The replicated database the replica tests run on: what the primary writes, both replicas show."""


def test_a_row_written_on_the_primary_appears_on_both_replicas(replicated_database):
    with replicated_database.primary.connect() as primary:
        primary.execute("create table replicated_marker (note text)")
        primary.execute("insert into replicated_marker values ('written on the primary')")
    replicated_database.wait_caught_up()
    for replica in replicated_database.replicas:
        with replica.connect() as connection:
            assert connection.execute("select pg_is_in_recovery()").fetchone() == (True,)
            assert connection.execute("select note from replicated_marker").fetchall() == [("written on the primary",)]
            assert connection.execute("select count(*) from record_file").fetchone() == (5,)
