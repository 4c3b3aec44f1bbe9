#!/usr/bin/env python3
"""Write bench/conversation.json: a large conversation shaped like the data
Ollama hands to its chat templates, for the text/template benchmark.

    python3 tools/gotmpl-harness/bench/gen_conversation.py \
        > tools/gotmpl-harness/bench/conversation.json

Shape (the keys are the Go field names Ollama's templates use, so a JSON
object decoded into map[string]any is looked up exactly like the struct):

    System, Prompt, Response, Suffix: strings
    Messages: a system message, then 50 messages alternating user/assistant;
              each {"Role", "Content", "ToolCalls": [{"Function": {"Name",
              "Arguments": {...}}}]}; every fifth assistant turn calls tools
    Tools:    3 tools, {"Type": "function", "Function": {"Name",
              "Description", "Parameters": {"Type": "object",
              "Required": [...], "Properties": {...}}}}
    Think: false, ThinkLevel: "", IsThinkSet: false

Deterministic: no randomness, no clock.
"""

import json
import sys

SYSTEM = ("You are a careful, friendly assistant. Answer concisely, cite tools "
          "when you use them, and never invent facts. Today you help with travel "
          "planning, unit conversions and small arithmetic.")

TOOLS = [
    {"Type": "function", "Function": {
        "Name": "get_current_weather",
        "Description": "Get the current weather for a city",
        "Parameters": {"Type": "object", "Required": ["location", "format"],
                       "Properties": {
                           "location": {"Type": "string",
                                        "Description": "The city and country, e.g. Paris, France"},
                           "format": {"Type": "string",
                                      "Description": "Temperature unit",
                                      "Enum": ["celsius", "fahrenheit"]}}}}},
    {"Type": "function", "Function": {
        "Name": "convert_currency",
        "Description": "Convert an amount of money between two currencies",
        "Parameters": {"Type": "object", "Required": ["amount", "from", "to"],
                       "Properties": {
                           "amount": {"Type": "number", "Description": "Amount to convert"},
                           "from": {"Type": "string", "Description": "ISO 4217 code to convert from"},
                           "to": {"Type": "string", "Description": "ISO 4217 code to convert to"}}}}},
    {"Type": "function", "Function": {
        "Name": "search_flights",
        "Description": "Search direct flights between two airports on a date",
        "Parameters": {"Type": "object", "Required": ["origin", "destination", "date"],
                       "Properties": {
                           "origin": {"Type": "string", "Description": "IATA code of the departure airport"},
                           "destination": {"Type": "string", "Description": "IATA code of the arrival airport"},
                           "date": {"Type": "string", "Description": "Departure date, YYYY-MM-DD"},
                           "max_stops": {"Type": "integer", "Description": "Maximum number of stops"}}}}},
]

CITIES = ["Paris, France", "Tokyo, Japan", "Lima, Peru", "Oslo, Norway", "Cairo, Egypt",
          "Quebec, Canada", "Hanoi, Vietnam", "Porto, Portugal"]


def user_text(i):
    city = CITIES[i % len(CITIES)]
    return (f"Question {i}: I am planning a trip to {city}. What should I pack, "
            f"and how much is 120 EUR in the local currency? Also, <is> it \"rainy\" & cold?")


def assistant_text(i):
    city = CITIES[i % len(CITIES)]
    return (f"For {city} I would pack layers, a light rain jacket and comfortable shoes.\n"
            f"1. Check the forecast the day before.\n2. Keep some cash for small shops.\n"
            f"Let me know if you want flight options ({i}).")


def tool_calls(i):
    city = CITIES[i % len(CITIES)]
    calls = [{"Function": {"Name": "get_current_weather",
                           "Arguments": {"location": city, "format": "celsius"}}}]
    if i % 2 == 0:
        calls.append({"Function": {"Name": "convert_currency",
                                   "Arguments": {"amount": 120, "from": "EUR", "to": "USD"}}})
    return calls


def main():
    messages = [{"Role": "system", "Content": SYSTEM, "ToolCalls": []}]
    for i in range(50):
        turn = i // 2
        if i % 2 == 0:
            messages.append({"Role": "user", "Content": user_text(turn), "ToolCalls": []})
        elif turn % 5 == 2:
            messages.append({"Role": "assistant", "Content": "", "ToolCalls": tool_calls(turn)})
        else:
            messages.append({"Role": "assistant", "Content": assistant_text(turn), "ToolCalls": []})
    data = {
        "System": SYSTEM,
        "Prompt": "",
        "Response": "",
        "Messages": messages,
        "Tools": TOOLS,
        "Think": False,
        "ThinkLevel": "",
        "IsThinkSet": False,
        "Suffix": "",
    }
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
