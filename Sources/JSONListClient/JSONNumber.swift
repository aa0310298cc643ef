/// One spelling for every JSON number that means the same value: `1`, `1.0`, `1.00`, `10e-1` and `0.1e1` are all
/// `1`; `1.50` is `1.5`; `-0` is `0`. Exact (decimal digits are moved, never rounded through a `Double`), so a
/// 20-digit id stays itself.
public enum JSONNumber {
    /// How far the decimal point is moved before the exponent form is used instead: a hostile `1e999999999` is
    /// never written out as a billion zeros.
    static let longestPlainForm = 40

    /// The canonical spelling of the JSON number `text` (already checked against the JSON grammar), or `nil`
    /// when its exponent is beyond ±1,000,000 — no real list has such numbers, and no arithmetic may overflow.
    public static func canonical(_ text: some Collection<UInt8>) -> String? {
        var negative = false
        var digits: [UInt8] = []
        var pointShift = 0  // digits after the decimal point
        var exponent = 0
        var index = text.startIndex
        if index < text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            index = text.index(after: index)
        }
        var afterPoint = false
        while index < text.endIndex {
            let byte = text[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits.append(byte)
                if afterPoint { pointShift += 1 }
            } else if byte == UInt8(ascii: ".") {
                afterPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let value = Self.exponent(text[text.index(after: index)...]) else { return nil }
                exponent = value
                break
            } else {
                return nil
            }
            index = text.index(after: index)
        }
        return spell(negative: negative, digits: digits, exponent: exponent - pointShift)
    }

    /// `+12`, `-3`, `7` → the value, at most ±1,000,000.
    private static func exponent(_ text: some Collection<UInt8>) -> Int? {
        var negative = false
        var value = 0
        var sawDigit = false
        for (offset, byte) in text.enumerated() {
            if offset == 0, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            sawDigit = true
            guard value <= 1_000_000 else { return nil }
        }
        return sawDigit ? (negative ? -value : value) : nil
    }

    /// `digits` × 10^`exponent`, without leading or trailing zeros.
    private static func spell(negative: Bool, digits: [UInt8], exponent: Int) -> String {
        var digits = digits.drop { $0 == UInt8(ascii: "0") }
        guard !digits.isEmpty else { return "0" }
        var exponent = exponent
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if exponent >= 0, digits.count + exponent <= longestPlainForm {
            out += digits
            out += Array(repeating: UInt8(ascii: "0"), count: exponent)
        } else if exponent < 0, -exponent <= longestPlainForm {
            let whole = digits.count + exponent
            if whole > 0 {
                out += digits.prefix(whole)
                out.append(UInt8(ascii: "."))
                out += digits.dropFirst(whole)
            } else {
                out += Array("0.".utf8)
                out += Array(repeating: UInt8(ascii: "0"), count: -whole)
                out += digits
            }
        } else {
            // d.ddd e±N: the exponent of the first digit.
            out.append(digits.first!)
            if digits.count > 1 {
                out.append(UInt8(ascii: "."))
                out += digits.dropFirst()
            }
            out += Array("e\(exponent + digits.count - 1)".utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
