@testable import JSONListClient
import TrackerHTTP
import XCTest

final class PointerAndTemplateTests: XCTestCase {
    private let document = try! JSONParser.parse(Array(#"{"a/b": {"m~n": [10, {"x": "y"}]}, "": 1, "list": []}"#.utf8))

    func test_pointer_rfc6901() {
        XCTAssertEqual(JSONPointer("")?.resolve(in: document), document)
        XCTAssertEqual(JSONPointer("/a~1b/m~0n/0")?.resolve(in: document), .number("10"))
        XCTAssertEqual(JSONPointer("/a~1b/m~0n/1/x")?.resolve(in: document), .string("y"))
        XCTAssertEqual(JSONPointer("/")?.resolve(in: document), .number("1"), "the empty member name")
        XCTAssertNil(JSONPointer("/a~1b/m~0n/01")?.resolve(in: document), "no leading zeros")
        XCTAssertNil(JSONPointer("/a~1b/m~0n/2")?.resolve(in: document))
        XCTAssertNil(JSONPointer("/list/-")?.resolve(in: document))
        XCTAssertNil(JSONPointer("data"), "must start with /")
        XCTAssertNil(JSONPointer("/a~2"), "~ only before 0 or 1")
        XCTAssertEqual(JSONPointer("/a~1b/m~0n")?.description, "/a~1b/m~0n")
    }

    func test_fieldPath_nameOrPointer() {
        XCTAssertEqual(FieldPath("status")?.pointer, JSONPointer(member: "status"))
        XCTAssertEqual(FieldPath("a/b")?.value(in: document)?.kindDescription, "an object", "a name with / is a name")
        XCTAssertEqual(FieldPath("/a~1b/m~0n/0")?.value(in: document), .number("10"))
        XCTAssertNil(FieldPath(""))
        XCTAssertNil(FieldPath("/~"))
    }

    func test_template_fieldsInBraces_literalBracesDoubled() throws {
        let template = try Template(parsing: "{device} ({os}) {{x}} {/meta/color}")
        XCTAssertEqual(template.fields.map(\.name), ["device", "os", "/meta/color"])
        XCTAssertEqual(
            template.render { ["device": "Pixel", "os": "Android", "/meta/color": "red"][$0.name] },
            "Pixel (Android) {x} red")
        XCTAssertEqual(template.render { _ in nil }, " () {x} ")
        XCTAssertEqual(try Template(parsing: "{html_url}").singleField?.name, "html_url")
        for bad in ["{unclosed", "stray }", "{}", "{/~}"] {
            XCTAssertThrowsError(try Template(parsing: bad), bad)
        }
    }

    func test_linkHeader_nextAmongOthers_quotedAndCommas() {
        let value =
            #"<https://api.example.com/x?page=1&q=a,b>; rel="prev", <https://api.example.com/x?page=3>; rel="next last"; title="a, b", <x>; rel=first"#
        XCTAssertEqual(LinkHeader.target("next", in: [value]), "https://api.example.com/x?page=3")
        XCTAssertEqual(LinkHeader.target("prev", in: [value]), "https://api.example.com/x?page=1&q=a,b")
        XCTAssertEqual(LinkHeader.target("first", in: [value]), "x")
        XCTAssertEqual(LinkHeader.target("NEXT", in: ["", #"<n>; REL="Next""#]), "n")
        XCTAssertNil(LinkHeader.target("next", in: [#"<a>; rel="prev""#, "garbage", "<unclosed"]))
    }

    func test_listURL_resolvesReferences_setsParameters_namesOrigins() throws {
        let base = try XCTUnwrap(ListURL("https://Api.Example.com/v1/items?page=1&x=a%20b"))
        XCTAssertEqual(base.origin, "https://api.example.com:443")
        XCTAssertEqual(base.resolving("/v1/items?page=2")?.description, "https://Api.Example.com/v1/items?page=2")
        XCTAssertEqual(base.resolving("?page=3")?.description, "https://Api.Example.com/v1/items?page=3")
        XCTAssertEqual(base.resolving("other?p=1")?.description, "https://Api.Example.com/v1/other?p=1")
        XCTAssertEqual(base.resolving("//cdn.example.com/x")?.origin, "https://cdn.example.com:443")
        XCTAssertEqual(base.resolving("http://api.example.com/v1")?.origin, "http://api.example.com:80")
        XCTAssertNil(base.resolving("ftp://x/y"))
        XCTAssertEqual(base.setting("page", to: "2").description, "https://Api.Example.com/v1/items?x=a%20b&page=2")
        XCTAssertEqual(base.setting("cursor", to: "a b/=").query, "page=1&x=a%20b&cursor=a%20b%2F%3D")
        XCTAssertEqual(ListURL("http://[::1]:8080/x")?.origin, "http://[::1]:8080")
        for bad in ["http://", "http://u:p@host/", "https://host:99999/", "https://host/a b", "file:///etc/passwd"] {
            XCTAssertNil(ListURL(bad), bad)
        }
    }
}
