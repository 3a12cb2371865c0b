// Reference solution. Let S be the largest "second-best" value: the maximum over generals g of the
// second-largest value in g's row. A pair worth more than S is the top pair of both its generals.
// * You can get S: take g, the computer must take g's top partner, take g's second partner. From
//   then on, whenever the computer takes some x, take x's top partner if it is free; so the
//   computer never owns both ends of a pair worth more than S (nor S itself): you win.
// * You cannot get more: when you take a general x whose top pair is worth more than S, any pair
//   the computer could prefer to it would also be a top pair with a free partner, and by induction
//   every such pair left behind is worth less than S; so the computer takes x's top partner.
// Hence the answer is always `1` and S.
use std::io::{self, Read, Write};

fn main() {
    let mut input = Vec::new();
    io::stdin().read_to_end(&mut input).unwrap();
    let mut nums = input
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0i64, |a, &d| a * 10 + i64::from(d - b'0')));
    let n = nums.next().unwrap() as usize;
    // top[i] = (largest, second largest) value among pairs containing general i; -1 = none yet.
    let mut top = vec![(-1i64, -1i64); n];
    fn push(t: &mut (i64, i64), x: i64) {
        if x > t.0 {
            *t = (x, t.0);
        } else if x > t.1 {
            t.1 = x;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            let x = nums.next().unwrap();
            push(&mut top[i], x);
            push(&mut top[j], x);
        }
    }
    let ans = top.iter().map(|&(_, second)| second).max().unwrap();
    io::stdout().write_all(format!("1\n{ans}\n").as_bytes()).unwrap();
}
