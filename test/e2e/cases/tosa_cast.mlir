// tosa.cast between the TOSA types: float -> int (round to nearest even,
// saturating), float -> float (round to nearest even), int -> float, int ->
// int (sign extension / truncation), int <-> bool. 37x53.
func.func @from_f32(%x: tensor<37x53xf32>, %y: tensor<37x53xf32>)
    -> (tensor<37x53xi32>, tensor<37x53xi16>, tensor<37x53xi8>, tensor<37x53xf16>,
        tensor<37x53xbf16>) {
  %i32 = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xi32>
  %i16 = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xi16>
  %i8 = tosa.cast %x : (tensor<37x53xf32>) -> tensor<37x53xi8>
  %f16 = tosa.cast %y : (tensor<37x53xf32>) -> tensor<37x53xf16>
  %bf16 = tosa.cast %y : (tensor<37x53xf32>) -> tensor<37x53xbf16>
  return %i32, %i16, %i8, %f16, %bf16
    : tensor<37x53xi32>, tensor<37x53xi16>, tensor<37x53xi8>, tensor<37x53xf16>,
      tensor<37x53xbf16>
}

// f16 / bf16 sources: to f32 (exact) and to integers (rounded, saturated).
func.func @from_half(%h: tensor<37x53xf16>, %b: tensor<37x53xbf16>)
    -> (tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xi16>, tensor<37x53xi8>,
        tensor<37x53xi32>, tensor<37x53xi8>) {
  %hf = tosa.cast %h : (tensor<37x53xf16>) -> tensor<37x53xf32>
  %bf = tosa.cast %b : (tensor<37x53xbf16>) -> tensor<37x53xf32>
  %hi16 = tosa.cast %h : (tensor<37x53xf16>) -> tensor<37x53xi16>
  %hi8 = tosa.cast %h : (tensor<37x53xf16>) -> tensor<37x53xi8>
  %bi32 = tosa.cast %b : (tensor<37x53xbf16>) -> tensor<37x53xi32>
  %bi8 = tosa.cast %b : (tensor<37x53xbf16>) -> tensor<37x53xi8>
  return %hf, %bf, %hi16, %hi8, %bi32, %bi8
    : tensor<37x53xf32>, tensor<37x53xf32>, tensor<37x53xi16>, tensor<37x53xi8>,
      tensor<37x53xi32>, tensor<37x53xi8>
}

// Integers to floats: i32 values beyond 2^24 (f32 rounding), i16 beyond 2^11
// (f16 rounding), i8.
func.func @to_float(%a: tensor<37x53xi32>, %c: tensor<37x53xi16>, %d: tensor<37x53xi8>)
    -> (tensor<37x53xf32>, tensor<37x53xbf16>, tensor<37x53xf32>, tensor<37x53xf16>,
        tensor<37x53xf32>, tensor<37x53xf16>, tensor<37x53xbf16>) {
  %af = tosa.cast %a : (tensor<37x53xi32>) -> tensor<37x53xf32>
  %ab = tosa.cast %a : (tensor<37x53xi32>) -> tensor<37x53xbf16>
  %cf = tosa.cast %c : (tensor<37x53xi16>) -> tensor<37x53xf32>
  %ch = tosa.cast %c : (tensor<37x53xi16>) -> tensor<37x53xf16>
  %df = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xf32>
  %dh = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xf16>
  %db = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xbf16>
  return %af, %ab, %cf, %ch, %df, %dh, %db
    : tensor<37x53xf32>, tensor<37x53xbf16>, tensor<37x53xf32>, tensor<37x53xf16>,
      tensor<37x53xf32>, tensor<37x53xf16>, tensor<37x53xbf16>
}

// Integer widths and bool: widening sign-extends, narrowing truncates,
// int -> bool is "!= 0", bool -> int is 0/1.
func.func @int_int(%a: tensor<37x53xi32>, %c: tensor<37x53xi16>, %d: tensor<37x53xi8>,
                   %p: tensor<37x53xi1>)
    -> (tensor<37x53xi8>, tensor<37x53xi16>, tensor<37x53xi8>, tensor<37x53xi32>,
        tensor<37x53xi16>, tensor<37x53xi32>, tensor<37x53xi1>, tensor<37x53xi1>,
        tensor<37x53xi1>, tensor<37x53xi32>, tensor<37x53xi8>, tensor<37x53xi16>) {
  %a8 = tosa.cast %a : (tensor<37x53xi32>) -> tensor<37x53xi8>
  %a16 = tosa.cast %a : (tensor<37x53xi32>) -> tensor<37x53xi16>
  %c8 = tosa.cast %c : (tensor<37x53xi16>) -> tensor<37x53xi8>
  %d32 = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xi32>
  %d16 = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xi16>
  %c32 = tosa.cast %c : (tensor<37x53xi16>) -> tensor<37x53xi32>
  %ab = tosa.cast %a : (tensor<37x53xi32>) -> tensor<37x53xi1>
  %cb = tosa.cast %c : (tensor<37x53xi16>) -> tensor<37x53xi1>
  %db = tosa.cast %d : (tensor<37x53xi8>) -> tensor<37x53xi1>
  %p32 = tosa.cast %p : (tensor<37x53xi1>) -> tensor<37x53xi32>
  %p8 = tosa.cast %p : (tensor<37x53xi1>) -> tensor<37x53xi8>
  %p16 = tosa.cast %p : (tensor<37x53xi1>) -> tensor<37x53xi16>
  return %a8, %a16, %c8, %d32, %d16, %c32, %ab, %cb, %db, %p32, %p8, %p16
    : tensor<37x53xi8>, tensor<37x53xi16>, tensor<37x53xi8>, tensor<37x53xi32>,
      tensor<37x53xi16>, tensor<37x53xi32>, tensor<37x53xi1>, tensor<37x53xi1>,
      tensor<37x53xi1>, tensor<37x53xi32>, tensor<37x53xi8>, tensor<37x53xi16>
}
