"""Templates aimed at the Jinja engine's differences between llama.cpp builds (the `jinja` rows of
crates/changes/src/llamacpp.rs: b10488 vs b11312), as driver input lines:

    {"name": "<switch>/<label>", "template": ..., "vars": {...}}                      render
    {"name": ..., "mode": "caps", "template": ...}                                    caps_get
    {"name": ..., "template": ..., "runs_vars": [{...}, ...]}                         one parse, several renders

usage: gen_builds.py [TEST_JINJA.jsonl ...] > builds.jsonl

Every TEST_JINJA.jsonl given (the test-jinja goldens of tools/jinja-tables, one per build) adds its cases as
"test-jinja/<group>/<name>" rows (duplicates by template and vars dropped), so each build's upstream test cases
also run on the other build's engine. `x is divisibleby 0` is never generated: it kills the C++ process.
"""
import json
import sys

V = {
    "x": 42, "n": 1, "two": 2, "neg": -3, "f": -1.5, "s": "abc", "e": "", "none_v": None, "t": True, "fl": False,
    "items": ["a", "b", "c"], "arr": [1, 2, 3], "obj": {"a": 3, "b": 1},
    "pairs": [[1, "z"], [2, "x"], [3, "y"]], "nested": [[[1, 2]], [[3, 4]]],
    "recs": [{"x": 2, "k": "b"}, {"x": 1, "k": "a"}, {"x": 3, "k": "c"}],
    "holes": [{"x": 2, "k": "b"}, {"x": 1}, {"k": "c"}],
    "mixed": [1, "a", None, True, [1], {"a": 1}],
    "strs": ["b", "A", "a", "c"],
    "msg": {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image"}]},
    "msgs": [{"role": "user", "content": [{"type": "text", "text": "Hello"}, {"type": "text", "text": "there"}]},
             {"role": "assistant", "content": "Hi!"}],
}

rows = []


def render(name, template, vars=None):
    rows.append({"name": name, "template": template, "vars": V if vars is None else vars})


def caps(name, template):
    rows.append({"name": name, "mode": "caps", "template": template})


def runs(name, template, runs_vars):
    rows.append({"name": name, "template": template, "runs_vars": runs_vars})


# jinja_test_arg_without_parens: `x is test arg` (b10488 wants parentheses)
for label, expr in [
    ("divisibleby_bare", "x is divisibleby 3"), ("divisibleby_paren", "x is divisibleby(3)"),
    ("divisibleby_bare_false", "x is divisibleby 5"), ("gt_bare", "3 is gt 2"), ("gt_paren", "3 is gt(2)"),
    ("lt_identifier", "two is lt x"), ("eq_string", "s is eq 'abc'"), ("ne_number", "x is ne 41"),
    ("ge_float", "x is ge 41.5"), ("in_list", "'b' is in ['a', 'b']"), ("in_identifier", "'a' is in items"),
    ("in_dict", "'a' is in {'a': 1}"), ("equalto_bare", "n is equalto 1"), ("sameas_bare_none", "none_v is sameas none"),
    ("not_gt_bare", "x is not gt 100"), ("bare_then_and", "x is gt 1 and x is lt 100"),
    ("bare_then_or", "x is lt 1 or x is gt 2"), ("defined_then_and", "x is defined and t"),
    ("defined_end", "x is defined"), ("bare_negative", "x is gt -5"), ("bare_attr", "x is gt obj.a"),
    ("bare_filter_arg", "x is gt arr|length"), ("odd_then_else", "'y' if x is odd else 'n'"),
]:
    render(f"jinja_test_arg_without_parens/{label}", "{{ " + expr + " }}")
render("jinja_test_arg_without_parens/loop_index",
       "{% for i in arr * 3 %}{% if loop.index is divisibleby 3 %}|{% endif %}{{ i }}{% endfor %}")
render("jinja_test_arg_without_parens/if_stmt", "{% if x is gt 10 %}big{% else %}small{% endif %}")
render("jinja_test_arg_without_parens/select_bare", "{{ arr|select('gt', 1)|list }}")
render("jinja_test_arg_without_parens/ident_after_test",
       "{% set y = 5 %}{{ 'a' if x is defined else 'b' }}{{ x is number }}")
render("jinja_test_arg_without_parens/string_not_in", "{{ s is string not in items }}")

# jinja_unary_non_literal: unary - and + before a non-literal
for label, expr in [
    ("neg_var", "-n"), ("neg_var_abs", "-neg|abs"), ("neg_paren", "-(x)"), ("pos_var", "+f"),
    ("pos_int", "+x"), ("neg_float_var", "-f"), ("slice_neg_var", "items[:-n]"), ("slice_neg_var_string", "s[-n:]"),
    ("index_neg_var", "arr[-n]"), ("double_neg", "--x"), ("not_neg", "not -n"), ("neg_attr", "-obj.a"),
    ("neg_literal", "-1"), ("neg_literal_filter", "-1|abs"), ("neg_in_arith", "x - -n"), ("neg_string", "-s"),
    ("pos_string", "+s"), ("neg_none", "-none_v"), ("neg_bool", "-t"), ("neg_list_len", "-(arr|length)"),
    ("neg_then_filter_string", "-n|string"), ("pos_then_round", "+f|round"),
]:
    render(f"jinja_unary_non_literal/{label}", "{{ " + expr + " }}")
render("jinja_unary_non_literal/set_neg", "{% set k = -n %}{{ k }}{{ items[k] }}")
render("jinja_unary_non_literal/indent_slice",
       "{% set indent = '    ' %}{% set w = 2 %}[{{ indent[:-w] }}]")

# jinja_none_in: `none in x`
for label, expr in [
    ("none_in_list", "none in [1, none]"), ("none_in_list_absent", "none in arr"), ("var_none_in", "none_v in mixed"),
    ("none_not_in", "none not in arr"), ("none_in_dict", "none in obj"), ("none_in_string", "none in s"),
    ("x_in_none", "x in none_v"), ("none_in_none", "none in none"), ("undefined_in_list", "undef in arr"),
    ("value_in_list_with_none", "x in [1, none, 42]"),
]:
    render(f"jinja_none_in/{label}", "{{ " + expr + " }}")
render("jinja_none_in/effort_default",
       "{% set e = reasoning_effort | default(none) %}{% if e in {'low': 1, 'high': 3} %}in{% else %}out{% endif %}")

# jinja_dot_integer: obj.0
for label, expr in [
    ("array_0", "items.0"), ("array_2", "items.2"), ("array_out_of_range", "items.5"), ("string_0", "s.0"),
    ("nested", "pairs.1.1"), ("content_0_type", "msg.content.0.type"), ("dict_int_key", "{10: 'Bob'}.10"),
    ("dict_string_key", "{'10': 'Bob'}.10"), ("object_int", "obj.0"), ("then_filter", "items.0|upper"),
    ("is_defined", "items.9 is defined"),
]:
    render(f"jinja_dot_integer/{label}", "{{ " + expr + " }}")

# jinja_member_odd_keys: bool and other odd keys
for label, expr in [
    ("array_true", "items[true]"), ("array_false", "items[false]"), ("string_true", "s[true]"),
    ("array_float", "items[1.0] is undefined"), ("array_float_print", "items[1.5]"), ("array_none", "items[none]"),
    ("array_string_digit", "items['1'] is undefined"), ("array_list_key", "items[[1]]"),
    ("dict_true", "{true: 'yes'}[true]"), ("dict_float", "obj[1.5] is undefined"), ("dict_none", "obj[none] is undefined"),
    ("string_float", "s[0.0]"), ("array_var_bool", "items[t]"),
]:
    render(f"jinja_member_odd_keys/{label}", "{{ " + expr + " }}")

# jinja_dict_builtin: dict(...) and namespace(dict / pairs)
for label, tmpl in [
    ("dict_kwargs", "{{ dict(a=1, b='x')|tojson }}"), ("dict_defined", "{{ dict is defined }}"),
    ("dict_from_items", "{% set o = dict(obj|items|list, c=2) %}{{ o|tojson }}"),
    ("dict_pairs", "{{ dict([('x', 1), ('y', 2)])|tojson }}"), ("dict_empty", "{{ dict()|tojson }}"),
    ("dict_from_dict", "{{ dict(obj)|tojson }}"), ("dict_bad_arg", "{{ dict(1) }}"),
    ("dict_bad_pairs", "{{ dict([1, 2]) }}"),
    ("namespace_dict", "{% set ns = namespace(obj) %}{{ ns.a }}{% set ns.a = 9 %}{{ ns.a }}"),
    ("namespace_pairs", "{% set ns = namespace([('k', 'v')], z=1) %}{{ ns.k }}{{ ns.z }}"),
    ("namespace_kwargs", "{% set ns = namespace(c=0) %}{% for i in arr %}{% set ns.c = ns.c + i %}{% endfor %}{{ ns.c }}"),
    ("namespace_bad", "{{ namespace(5) }}"), ("dict_shadowed", "{% set dict = 3 %}{{ dict }}"),
    ("dict_var", "{{ dict }}"),
]:
    render(f"jinja_dict_builtin/{label}", tmpl)

# jinja_sameas
for label, expr in [
    ("false_paren", "fl is sameas(false)"), ("false_bare", "fl is sameas false"), ("true_vs_1", "t is sameas(1)"),
    ("small_int", "1 is sameas(1)"), ("big_int", "1000 is sameas(1000)"), ("none", "none_v is sameas(none)"),
    ("undefined", "undef is sameas(undef)"), ("same_list", "arr is sameas(arr)"), ("equal_lists", "[1] is sameas([1])"),
    ("strings", "'a' is sameas('a')"), ("not_sameas", "x is not sameas(none)"),
]:
    render(f"jinja_sameas/{label}", "{{ 'yes' if " + expr + " else 'no' }}")

# jinja_minmax_attribute
for label, expr in [
    ("min_attr", "recs|min(attribute='x')|tojson"), ("max_attr", "recs|max(attribute='x')|tojson"),
    ("max_attr_string", "recs|max(attribute='k')|tojson"), ("min_attr_missing", "holes|min(attribute='x')|tojson"),
    ("max_attr_digit_on_arrays", "pairs|max(attribute='1')|tojson"), ("min_attr_int_on_arrays", "pairs|min(attribute=0)|tojson"),
    ("min_plain", "arr|min"), ("max_plain", "strs|max"), ("max_case", "strs|max(case_sensitive=true)"),
    ("min_attr_case", "recs|min(attribute='k', case_sensitive=true)|tojson"),
]:
    render(f"jinja_minmax_attribute/{label}", "{{ " + expr + " }}")

# jinja_shared_get_attribute: join / map / sort / selectattr / rejectattr attributes
for label, expr in [
    ("join_attr_digit_string", "[[1], [2], [3]]|join(attribute='0')"),
    ("join_attr_int", "[[1], [2], [3]]|join(attribute=0)"), ("join_attr_bool", "pairs|join(',', attribute=true)"),
    ("join_attr_object", "recs|join(',', attribute='k')"), ("join_attr_missing", "holes|join(',', attribute='k')"),
    ("join_attr_float", "recs|join(attribute=1.5)"), ("join_attr_none", "recs|join(attribute=none)"),
    ("join_attr_on_strings", "items|join(attribute='0')"),
    ("map_attr_digit", "pairs|map(attribute='1')|list"), ("map_attr_int", "pairs|map(attribute=1)|list"),
    ("map_attr_bool", "pairs|map(attribute=true)|list"), ("map_attr_float", "pairs|map(attribute=1.5)|list"),
    ("map_attr_missing", "holes|map(attribute='k')|list"), ("map_attr_default", "holes|map(attribute='k', default='-')|list"),
    ("map_attr_on_strings", "items|map(attribute='0')|list"),
    ("sort_attr_digit_on_arrays", "pairs|sort(attribute='1')|tojson"),
    ("sort_attr_int_on_arrays", "pairs|sort(attribute=1)|tojson"),
    ("sort_then_join", "pairs|sort(attribute='01')|join(attribute=1)"),
    ("sort_attr_object", "recs|sort(attribute='k', reverse=true)|map(attribute='x')|join"),
    ("sort_attr_missing", "holes|sort(attribute='x')|length"),
    ("sort_attr_on_mixed", "[[2], {'0': 1}]|sort(attribute='0')|tojson"),
    ("selectattr_arrays", "pairs|selectattr('0', 'gt', 1)|list|tojson"),
    ("selectattr_truthy_arrays", "[[0], [1], [2]]|selectattr('0')|list|tojson"),
    ("selectattr_strings", "items|selectattr('0')|list"), ("selectattr_mixed", "mixed|selectattr('a')|list|tojson"),
    ("rejectattr_arrays", "pairs|rejectattr('0', 'eq', 2)|list|tojson"), ("rejectattr_numbers", "arr|rejectattr('x')|list"),
    ("selectattr_objects", "recs|selectattr('x', 'gt', 1)|map(attribute='k')|join"),
    ("selectattr_missing", "holes|selectattr('x')|list|length"),
    ("selectattr_content_parts", "msg.content|selectattr('type', 'equalto', 'text')|map(attribute='text')|join"),
]:
    render(f"jinja_shared_get_attribute/{label}", "{{ " + expr + " }}")

# jinja_iterable_sequence_dict
for label, expr in [
    ("dict_iterable", "obj is iterable"), ("dict_sequence", "obj is sequence"), ("dict_mapping", "obj is mapping"),
    ("list_iterable", "arr is iterable"), ("string_iterable", "s is iterable"), ("int_iterable", "x is iterable"),
    ("undefined_iterable", "undef is iterable"), ("none_sequence", "none_v is sequence"),
    ("content_parts_check", "msg is iterable and msg is not string"),
    ("dict_not_iterable", "obj is not iterable"),
]:
    render(f"jinja_iterable_sequence_dict/{label}", "{{ " + expr + " }}")
render("jinja_iterable_sequence_dict/branch",
       "{% for m in [msg, 'plain', obj] %}{% if m is iterable and m is not string %}I{% else %}S{% endif %}{% endfor %}")

# caps_typed_content_recheck (with jinja_test_stats and jinja_access_stats): caps of templates that test
# `content is string`
CONTENT_TEMPLATES = [
    ("string_else_selectattr",
     "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}"
     "{{ m.content|selectattr('type','equalto','text')|map(attribute='text')|join }}{% endif %}{% endfor %}"),
    ("string_else_loop",
     "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}"
     "{% for p in m.content %}{{ p.text }}{% endfor %}{% endif %}{% endfor %}"),
    ("string_else_index",
     "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}{{ m.content[0].text }}{% endif %}"
     "{% endfor %}"),
    ("string_else_dot_0",
     "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}{{ m.content.0.text }}{% endif %}"
     "{% endfor %}"),
    ("string_only", "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% endif %}{% endfor %}"),
    ("not_string_first",
     "{% for m in messages %}{% if m.content is not string %}{% for p in m.content %}"
     "{% if p.type == 'text' %}{{ p.text }}{% endif %}{% endfor %}{% else %}{{ m.content }}{% endif %}{% endfor %}"),
    ("string_else_raise",
     "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}"
     "{{ raise_exception('no parts') }}{% endif %}{% endfor %}"),
    ("iterable_check",
     "{% for m in messages %}{% if m.content is iterable and m.content is not string %}"
     "{{ m.content|map(attribute='text')|join }}{% else %}{{ m.content }}{% endif %}{% endfor %}"),
    ("plain", "{% for m in messages %}{{ m.content }}{% endfor %}"),
    ("parts_only", "{% for m in messages %}{% for p in m.content %}{{ p.text }}{% endfor %}{% endfor %}"),
]
for label, tmpl in CONTENT_TEMPLATES:
    caps(f"caps_typed_content_recheck/{label}", tmpl)
    render(f"caps_typed_content_recheck/{label}/render", tmpl, dict(V, messages=V["msgs"]))

# jinja_filter_block_sticky_error: a {% filter %} block whose filter failed, rendered again (one parse)
runs("jinja_filter_block_sticky_error/unknown_filter", "{% filter nosuchfilter %}abc{% endfilter %}", [V, V])
runs("jinja_filter_block_sticky_error/fails_then_ok",
     "{% filter replace(a, 'X') %}banana{% endfilter %}", [dict(V, a=1), dict(V, a="an"), dict(V, a="n")])
runs("jinja_filter_block_sticky_error/ok_then_fails",
     "{% filter replace(a, 'X') %}banana{% endfilter %}", [dict(V, a="an"), dict(V, a=1), dict(V, a="n")])
runs("jinja_filter_block_sticky_error/upper_twice", "{% filter upper %}{{ s }}{% endfilter %}", [V, V])
runs("jinja_filter_block_sticky_error/body_fails",
     "{% filter upper %}{{ s if ok else raise_exception('body') }}{% endfilter %}",
     [dict(V, ok=False), dict(V, ok=True)])

# test-jinja cases of each build, on every engine
seen = set()
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        key = (r["template"], json.dumps(r["vars"], sort_keys=True))
        if key in seen or "divisibleby(0)" in r["template"]:
            continue
        seen.add(key)
        rows.append({"name": f"test-jinja/{r['group']}/{r['name']}", "template": r["template"], "vars": r["vars"]})

names = [r["name"] for r in rows if not r["name"].startswith("test-jinja/")]
assert len(names) == len(set(names)), "duplicate names"
for r in rows:
    print(json.dumps(r, ensure_ascii=False))
