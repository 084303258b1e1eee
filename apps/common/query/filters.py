"""django-filter filters declaring a route's parameters in the comparison grammar
(`apps.common.query.comparisons`).

`?timestamp=gte:1700000000.5&timestamp=lt:1700000001&account.id=0.0.98`: each filter
names the public parameter (`param`), the column its comparisons apply to
(`field_name`; none for a parameter its selector reads itself), the operators it
takes, a parser turning an operand into the column's value (raising ValueError
for a bad operand) and what the parameter means to a user (`description`, which our
OpenAPI document shows). Filters only validate: the criteria they produce go to the
route's selector. Each bad value
becomes one `Invalid parameter: <param>` message. A value holding a NUL character
is bad whatever its parser: PostgreSQL refuses NUL in text, so it would fail as a
database error rather than as the client's.
"""

from collections.abc import Callable, Collection
from typing import Any

import django_filters
from django import forms
from django.forms.utils import ErrorDict, ErrorList
from django.utils.datastructures import MultiValueDict

from apps.common.query.comparisons import ALL_OPERATORS, Comparison, split_operator


class RepeatedValuesField(forms.Field):
    """A form field over every value of a repeated query parameter."""

    widget = forms.MultipleHiddenInput

    def __init__(self, *, parse_one: Callable[[str], Any], **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.parse_one = parse_one

    def __deepcopy__(self, memo):
        # Stateless once built: a form may share it rather than copy it per request.
        return self

    def clean(self, values):
        parsed, errors = [], []
        for text in values or ():
            try:
                if text is None:
                    raise ValueError("not a plain value")
                if "\x00" in text:
                    raise ValueError("a NUL character")
                parsed.append(self.parse_one(text))
            except ValueError:
                errors.append(forms.ValidationError("invalid", code="invalid"))
        if errors:
            raise forms.ValidationError(errors)
        return parsed


class QueryForm(forms.Form):
    """The form validating a query's parameters: every field cleans the list of one
    parameter's values (`RepeatedValuesField`, or the strict dialect's field), and a
    parameter not given to no values.

    Such fields are stateless, so every form shares its class's fields instead of
    deep-copying them, and cleaning hands each field its values directly: the bound fields,
    widgets and per-field hooks of Django's HTML form machinery did nothing here but cost
    a tenth of a request's CPU. `is_valid`, `errors` and `cleaned_data` keep Django's
    meaning (a field with errors has no cleaned value)."""

    def __init__(self, data=None, prefix=None):
        self.is_bound = data is not None
        self.data = MultiValueDict() if data is None else data
        self.prefix = prefix
        self.fields = self.base_fields
        self._errors = None

    def full_clean(self):
        self._errors = ErrorDict()
        # A parameter not given cleans to no values (both field classes say so): only the
        # given ones are cleaned, one by one.
        self.cleaned_data = {name: [] for name in self.fields}
        for name, values in self.data.lists():
            field = self.fields.get(name)
            if field is None:
                continue
            try:
                self.cleaned_data[name] = field.clean(values)
            except forms.ValidationError as error:
                del self.cleaned_data[name]
                self._errors[name] = ErrorList(error.error_list)


# The descriptions of the two parameters every list reads (`ListFilterSet`), which a
# FilterSet of another dialect declares again.
LIMIT_DESCRIPTION = "The most results one page holds:"
ORDER_DESCRIPTION = "`asc` or `desc`: the direction the results come in."
# How the descriptions of comparison parameters name the operators they take.
WITH_ANY_OPERATOR = "after an optional operator: `eq:` (the default), `ne:`, `gt:`, `gte:`, `lt:` or `lte:`"
WITH_RANGE_OPERATOR = "after an optional operator: `eq:` (the default), `gt:`, `gte:`, `lt:` or `lte:`"


class MirrorFilter(django_filters.Filter):
    field_class = RepeatedValuesField

    def __init__(self, *args, param: str | None = None, description: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.param = param
        # What the parameter means, in the API's words: our OpenAPI document shows it.
        self.description = description
        # The column the shared page machinery compares; None when the selector reads the
        # parameter itself (django-filter would otherwise default `field_name` to the attribute's name).
        self.column = kwargs.get("field_name")

    def parse_one(self, text: str) -> Any:
        raise NotImplementedError

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = self.field_class(parse_one=self.parse_one, label=self.label)
        return self._field


class OperatorFilter(MirrorFilter):
    def __init__(
        self,
        *args,
        parser: Callable[[str], Any],
        operators: Collection[str] = ALL_OPERATORS,
        merge_equals: bool = True,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.parser = parser
        self.operators = frozenset(operators)
        self.merge_equals = merge_equals

    def parse_one(self, text: str) -> Comparison:
        operator, operand = split_operator(text)
        if operator not in self.operators:
            raise ValueError(f"Unsupported operator {operator!r}")
        return Comparison(operator, self.parser(operand))


class LastValueFilter(MirrorFilter):
    """A parameter that only sets a value (`limit`, `order`): every value is
    validated and the last one counts."""

    def __init__(self, *args, parser: Callable[[str], Any], **kwargs):
        super().__init__(*args, **kwargs)
        self.parser = parser

    def parse_one(self, text: str) -> Any:
        return self.parser(text)


def parse_order(text: str) -> str:
    if text.lower() not in ("asc", "desc"):
        raise ValueError(f"Invalid order {text!r}")
    return text.lower()


def parse_bool(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(f"Invalid boolean {text!r}")
    return text.lower() == "true"


def equals_only(parser: Callable[[str], Any]) -> Callable[[str], Any]:
    """A value that takes no operator but `eq` (`nonce=1`, `nonce=eq:1`)."""

    def parse(text: str):
        operator, operand = split_operator(text)
        if operator != "eq":
            raise ValueError(f"Unsupported operator {operator!r}")
        return parser(operand)

    return parse


def operator_ignored(parser: Callable[[str], Any]) -> Callable[[str], Any]:
    """A value that takes any valid operator and drops it (`limit=gt:5` is `limit=5`,
    `result=ne:fail` is `result=fail`), as upstream reads `limit`, `order` and
    `/transactions`' `result`, `type` and `transactiontype`."""

    def parse(text: str):
        operator, operand = split_operator(text)
        if operator not in ALL_OPERATORS:
            raise ValueError(f"Unsupported operator {operator!r}")
        return parser(operand)

    return parse
