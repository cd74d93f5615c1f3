"""Makes moto's EC2 lookups cost what EC2's do: a resource's tags, by id; a VPC, by tag.

moto 5.2 answers several lookups by scanning every resource of a region, in Python, often
doing far more per resource than the lookup needs. With N VPCs that makes our calls cost
O(N) or O(N^2) each, and the local EC2 endpoint, not the control plane, is what a benchmark
with 1,000 VPCs measures (bench/scenarios/moto-request-cost.ts: a tag-filtered DescribeVpcs
took 3.8 s at 1,000 VPCs and 320 s at 10,000; 10 ms and 40 ms with these shortcuts).

* One resource's tags (every DescribeVpcs result, every object a filter is tried on) are read
  through describe_tags(filters={"resource-id": [id]}), which walks every tag of every resource
  and compiles a regular expression per resource: O(all tags). Shortcut: that id's dict.
* A filter "tag:KEY" read from a resource goes through those tags again. Shortcut: a dict lookup.
* DescribeVpcs filtered by tags only (the create path's lookup by uid tag, a sweep by kind
  tag) tries each VPC through moto's generic filter. Shortcut: one pass over the VPCs with dict
  lookups, in the same order.
* get_security_group_from_id (CreateVpc and DeleteVpc both call it) copies every VPC's dict of
  groups to compare ids. Shortcut: a key lookup in each; groups are only ever stored under
  their own id.
* DeleteVpc finds the VPC's route tables with the generic filter. Shortcut: compare vpc_id.

Each shortcut returns exactly what moto's own code returns, so moto's answers, and the journal
and its replay, are unchanged (nothing here draws random numbers). Each is taken only in the
case it covers, with values free of wildcards (moto matches those with fnmatch, which for a
literal is equality), and otherwise falls back to moto's code. A randomized comparison of both
on one backend found no difference (see the notes in README's Benchmark section).

CHRONOPLANE_MOTO_PLAIN_LOOKUPS=1 leaves moto as it is, to measure what the shortcuts save.
"""

import os
from typing import Any, Callable

from moto.ec2.models.core import TaggedEC2Resource
from moto.ec2.models.route_tables import RouteBackend, RouteTable
from moto.ec2.models.security_groups import SecurityGroupBackend
from moto.ec2.models.tags import TagBackend
from moto.ec2.models.vpcs import VPC, VPCBackend
from moto.ec2.utils import EC2_PREFIX_TO_RESOURCE, get_prefix

PLAIN_ENV = "CHRONOPLANE_MOTO_PLAIN_LOOKUPS"

# fnmatch's wildcards, and the backslash moto's filter translation treats as an escape.
WILDCARD_CHARACTERS = frozenset("*?[\\")

# moto's own methods, checked once: if a later moto renames one, no shortcut is installed.
MOTO = {
    "describe_tags": getattr(TagBackend, "describe_tags", None),
    "get_filter_value": getattr(TaggedEC2Resource, "get_filter_value", None),
    "get_tags": getattr(TaggedEC2Resource, "get_tags", None),
    "vpc_get_filter_value": getattr(VPC, "get_filter_value", None),
    "describe_vpcs": getattr(VPCBackend, "describe_vpcs", None),
    "get_security_group_from_id": getattr(SecurityGroupBackend, "get_security_group_from_id", None),
    "describe_route_tables": getattr(RouteBackend, "describe_route_tables", None),
    "route_table_get_filter_value": getattr(RouteTable, "get_filter_value", None),
}


def literal_values(values: Any) -> list[str] | None:
    """The values when they are a list of strings without wildcards, else None."""
    if not isinstance(values, list) or not all(isinstance(v, str) and not WILDCARD_CHARACTERS.intersection(v) for v in values):
        return None
    return values


def only_filter(filters: Any, name: str) -> list[str] | None:
    """The literal values when `filters` is exactly one filter called `name`, else None."""
    if not isinstance(filters, dict) or list(filters) != [name]:
        return None
    return literal_values(filters[name])


def literal_tag_filters(filters: Any) -> dict[str, list[str]] | None:
    """{KEY: values} when every filter is "tag:KEY" with literal values, else None."""
    if not isinstance(filters, dict) or not filters:
        return None
    tag_filters = {}
    for name, values in filters.items():
        literal = literal_values(values)
        if not isinstance(name, str) or not name.startswith("tag:") or literal is None:
            return None
        tag_filters[name[len("tag:") :]] = literal
    return tag_filters


def keeps_moto_tags(resource: Any) -> bool:
    """Whether the resource reads its tags as TaggedEC2Resource does, from its backend's dict."""
    return getattr(type(resource), "get_tags", None) is MOTO["get_tags"] and isinstance(
        getattr(getattr(resource, "ec2_backend", None), "tags", None), dict
    )


def describe_tags(self: TagBackend, filters: dict[str, list[str]] | None = None) -> list[dict[str, str]]:
    ids = only_filter(filters, "resource-id")
    if ids is None or len(ids) != 1:
        return MOTO["describe_tags"](self, filters)  # type: ignore[misc]
    resource_id = ids[0]
    tags = self.tags.get(resource_id)  # .get: the dict is a defaultdict, and a read must not add to it
    if not tags:
        return []
    resource_type = EC2_PREFIX_TO_RESOURCE.get(get_prefix(resource_id), "")
    return [{"resource_id": resource_id, "key": key, "value": value, "resource_type": resource_type} for key, value in tags.items()]


def tag_value(resource: Any, key: str) -> str | None:
    """moto's get_filter_value("tag:KEY"): the first tag named KEY (keys are unique), or None."""
    if not resource.id:
        return None
    tags = resource.ec2_backend.tags.get(resource.id)
    return tags.get(key) if tags else None


def get_filter_value(self: TaggedEC2Resource, filter_name: str, method_name: str | None = None) -> Any:
    if not (filter_name.startswith("tag:") and keeps_moto_tags(self)):
        return MOTO["get_filter_value"](self, filter_name, method_name)  # type: ignore[misc]
    return tag_value(self, filter_name[len("tag:") :])


def describe_vpcs(self: VPCBackend, vpc_ids: list[str] | None = None, filters: Any = None) -> list[VPC]:
    tag_filters = literal_tag_filters(filters)
    vpcs = list(self.vpcs.values())
    # VPC's get_filter_value hands tag:KEY to TaggedEC2Resource's, which moto matches with fnmatch.
    plain_vpcs = all(type(v).get_filter_value is MOTO["vpc_get_filter_value"] and keeps_moto_tags(v) for v in vpcs)
    if vpc_ids or tag_filters is None or not plain_vpcs:
        return MOTO["describe_vpcs"](self, vpc_ids, filters)  # type: ignore[misc]
    return [v for v in vpcs if all(tag_value(v, key) in values for key, values in tag_filters.items())]


def get_security_group_from_id(self: SecurityGroupBackend, group_id: str) -> Any:
    for groups in list(self.groups.values()):
        group = groups.get(group_id)
        if group is not None:
            return group
    return None


def describe_route_tables(self: RouteBackend, route_table_ids: list[str] | None = None, filters: Any = None) -> list[RouteTable]:
    vpc_ids = only_filter(filters, "vpc-id")
    tables = list(self.route_tables.values())
    plain_tables = all(type(t).get_filter_value is MOTO["route_table_get_filter_value"] for t in tables)
    if route_table_ids or vpc_ids is None or not plain_tables:
        return MOTO["describe_route_tables"](self, route_table_ids, filters)  # type: ignore[misc]
    return [t for t in tables if t.vpc_id in vpc_ids]


SHORTCUTS: list[tuple[type, str, Callable[..., Any]]] = [
    (TagBackend, "describe_tags", describe_tags),
    (TaggedEC2Resource, "get_filter_value", get_filter_value),
    (VPCBackend, "describe_vpcs", describe_vpcs),
    (SecurityGroupBackend, "get_security_group_from_id", get_security_group_from_id),
    (RouteBackend, "describe_route_tables", describe_route_tables),
]


def install_lookup_shortcuts() -> bool:
    """Installs the shortcuts unless turned off or moto changed; says whether it did."""
    if os.environ.get(PLAIN_ENV) == "1" or None in MOTO.values():
        return False
    for owner, name, shortcut in SHORTCUTS:
        setattr(owner, name, shortcut)
    return True
