from django.db.models import BigIntegerField, Field, Func, Lookup


@Field.register_lookup
class NotEqual(Lookup):
    """`col <> value`, so that `ne:` leaves out NULLs as the upstream's SQL does
    (Django's exclude() would keep them)."""

    lookup_name = "ne"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} <> {rhs}", [*lhs_params, *rhs_params]


class RangeLower(Func):
    """`lower(range)`: the inclusive lower bound of an int8range column."""

    function = "lower"
    output_field = BigIntegerField()
