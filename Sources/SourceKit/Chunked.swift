extension Array {
    /// Consecutive slices of at most `size` elements: ids asked for in batches a server accepts.
    public func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
