"""The client against the API's own OpenAPI document: a route for every operation, and each
answer's model with exactly the fields the document gives that answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from evalflow_client import EvalflowClient, routes


def success_schema(document: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any]:
    for status, response in operation["responses"].items():
        if status.startswith("2"):
            schema = response["content"]["application/json"]["schema"]
            if "$ref" in schema:
                schema = document["components"]["schemas"][schema["$ref"].split("/")[-1]]
            return schema
    raise AssertionError(f"{operation['operationId']} has no success answer")


def test_every_operation_has_a_route_and_every_route_an_operation(evalflow):
    with EvalflowClient(evalflow.url, "unused") as client:
        document = client.openapi()
    assert document["openapi"] == "3.1.0"
    operations = {
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if not path.startswith("/docs")
    }
    mine = {(route.method, route.path) for route in routes.ALL if route is not routes.OPENAPI}
    assert mine == operations


def test_each_answer_model_has_the_fields_of_its_schema_under_their_wire_names(evalflow):
    with EvalflowClient(evalflow.url, "unused") as client:
        document = client.openapi()
    checked = 0
    for route in routes.ALL:
        model = route.model
        if route is routes.OPENAPI or model is None or not issubclass(model, BaseModel):
            continue
        operation = document["paths"][route.path][route.method.lower()]
        schema = success_schema(document, operation)
        wire = {field.alias or name for name, field in model.model_fields.items()}
        assert wire == set(schema["properties"]), f"{route.method} {route.path}"
        checked += 1
    assert checked == len(routes.ALL) - 3  # all but the document and the two event streams
