#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// `GET /paging/{style}`: the generic list in pages of `per_page` (or `limit`; default `--page-size`, at most 100).
enum PagingRoutes {
    static let styles = [
        "link", "next-absolute", "next-relative", "cursor", "page", "offset", "total",
        "ignore-page", "endless", "endless-body", "endless-fresh",
    ]
    static let largestPage = 100
    /// `endless-fresh`'s `pad`: at most 64 MB an item.
    static let largestPadding = 64 * 1_048_576

    /// `item` with members `pad1`, `pad2`, … of 100 characters each, about `bytes` more in all: an item as large
    /// as asked, every member of it a field to compare and to store.
    static func padded(_ item: JSONValue, bytes: Int) -> JSONValue {
        guard bytes > 0, var object = item.object else { return item }
        let value = JSONValue.string(String(repeating: "x", count: 100))
        let count = max(1, bytes / 114)  // `"pad12345":"x…x",`
        object.members.reserveCapacity(object.members.count + count)
        for number in 1...count { object.members.append(.init("pad\(number)", value)) }
        return .object(object)
    }

    /// An opaque cursor: base64url of `offset:N`, unpadded.
    static func cursor(_ offset: Int) -> String {
        Base64.encode(Array("offset:\(offset)".utf8)).replacing("+", with: "-").replacing("/", with: "_")
            .replacing("=", with: "")
    }

    static func offset(ofCursor cursor: String) -> Int? {
        var text = cursor.replacing("-", with: "+").replacing("_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        let plain = String(decoding: data, as: UTF8.self)
        guard plain.hasPrefix("offset:") else { return nil }
        return Int(plain.dropFirst(7)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A `Link` header as GitHub sends it: `prev`, `next`, `last`, `first` (each only where it exists), absolute.
    static func linkHeader(_ call: Call, path: String, page: Int, lastPage: Int?, hasNext: Bool) -> String? {
        var links: [(String, Int)] = []
        if page > 1 { links.append(("prev", page - 1)) }
        if hasNext { links.append(("next", page + 1)) }
        if let lastPage, lastPage > page { links.append(("last", lastPage)) }
        if page > 1 { links.append(("first", 1)) }
        guard !links.isEmpty else { return nil }
        return links.map { rel, number in
            "<\(call.origin)\(call.link(path, replacing: ["page": String(number)]))>; rel=\"\(rel)\""
        }.joined(separator: ", ")
    }
}

extension ServerState {
    mutating func paging(_ call: Call) -> Routed {
        variant(call, PagingRoutes.styles) { state, style in state.page(style, call) }
    }

    private func pageSize(_ call: Call, _ parameter: String) -> Int {
        min(PagingRoutes.largestPage, max(1, call.int(parameter, options.pageSize)))
    }

    private func slice(offset: Int, limit: Int) -> [JSONValue] {
        guard offset < items.count else { return [] }
        return Array(items[offset..<min(items.count, offset + limit)])
    }

    private func page(_ style: String, _ call: Call) -> SimResponse {
        let path = "/paging/" + style
        let perPage = pageSize(call, "per_page")
        let page = max(1, call.int("page", 1))
        let hasNext = page * perPage < items.count
        let next = hasNext ? call.link(path, replacing: ["page": String(page + 1)]) : nil
        let current = slice(offset: (page - 1) * perPage, limit: perPage)
        switch style {
        case "link", "ignore-page":
            // ignore-page: the page parameter is read for the links only; every answer is page 1.
            let size = call.query("per_page") == nil ? pageSize(call, "limit") : perPage
            let body = style == "link" ? current : slice(offset: 0, limit: size)
            let lastPage = max(1, (items.count + perPage - 1) / perPage)
            let link = PagingRoutes.linkHeader(call, path: path, page: page, lastPage: lastPage, hasNext: hasNext)
            return Reply.json(200, .array(body), headers: link.map { [("Link", $0)] } ?? [])
        case "next-absolute", "next-relative":
            let prefix = style == "next-absolute" ? call.origin : ""
            return Reply.json(200, ["items": .array(current), "links": ["next": .text(next.map { prefix + $0 })]])
        case "cursor": return cursorPage(call)
        case "page": return Reply.json(200, .array(current))
        case "offset":
            return Reply.json(200, .array(slice(offset: call.int("offset", 0), limit: pageSize(call, "limit"))))
        case "total":
            return Reply.json(
                200,
                [
                    "total": .int(items.count), "page": .int(page), "per_page": .int(perPage), "items": .array(current),
                ])
        default: return endlessPage(style, call, page: page, perPage: perPage)
        }
    }

    private func cursorPage(_ call: Call) -> SimResponse {
        let limit = pageSize(call, "limit")
        var offset = 0
        if let cursor = call.query("cursor"), !cursor.isEmpty {
            guard let decoded = PagingRoutes.offset(ofCursor: cursor) else {
                return Reply.error(400, "Invalid cursor")
            }
            offset = decoded
        }
        let next = offset + limit < items.count ? PagingRoutes.cursor(offset + limit) : nil
        return Reply.json(200, ["items": .array(slice(offset: offset, limit: limit)), "next_cursor": .text(next)])
    }

    /// Servers whose `next` never ends: page 1 again and again (`endless`, `endless-body`), or ever new items
    /// (`endless-fresh`, ids counting up without end, or up to `pages` pages; each item `pad` bytes larger).
    private func endlessPage(_ style: String, _ call: Call, page: Int, perPage: Int) -> SimResponse {
        let path = "/paging/" + style
        let next = call.link(path, replacing: ["page": String(page + 1)])
        switch style {
        case "endless-body":
            return Reply.json(
                200, ["items": .array(slice(offset: 0, limit: perPage)), "links": ["next": .string(next)]])
        case "endless-fresh":
            let padding = min(call.int("pad", 0), PagingRoutes.largestPadding)
            let fresh = (0..<perPage).map {
                PagingRoutes.padded(ItemFixtures.item((page - 1) * perPage + $0 + 1), bytes: padding)
            }
            let last = call.query("pages").flatMap(Int.init).map { page >= $0 } ?? false
            return Reply.json(
                200, .array(fresh), headers: last ? [] : [("Link", "<\(call.origin)\(next)>; rel=\"next\"")])
        default:
            return Reply.json(
                200, .array(slice(offset: 0, limit: perPage)),
                headers: [("Link", "<\(call.origin)\(next)>; rel=\"next\"")])
        }
    }
}
