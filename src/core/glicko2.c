/* glicko2.c — Glicko-2 (glicko2.h), Glickman's steps in order. */
#include "parlour/glicko2.h"

#include <math.h>

#define G2_SCALE 173.7178 /* the Glicko-2 scale's unit in Glicko points */
#define G2_PI 3.14159265358979323846
#define G2_EPS 0.000001

pl_glicko2 pl_glicko2_new(void)
{
    return (pl_glicko2){1500.0, 350.0, 0.06};
}

static double g2_g(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (G2_PI * G2_PI));
}

static double g2_e(double mu, double muj, double phij)
{
    return 1.0 / (1.0 + exp(-g2_g(phij) * (mu - muj)));
}

double pl_glicko2_expect(pl_glicko2 a, pl_glicko2 b)
{
    return g2_e((a.rating - 1500.0) / G2_SCALE, (b.rating - 1500.0) / G2_SCALE, b.deviation / G2_SCALE);
}

/* Step 5's f(x). */
static double g2_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

pl_glicko2 pl_glicko2_update(pl_glicko2 p, const pl_glicko2_game *g, int n, double tau)
{
    /* step 2: to the Glicko-2 scale */
    double mu = (p.rating - 1500.0) / G2_SCALE, phi = p.deviation / G2_SCALE, sigma = p.volatility;
    if (n <= 0) {
        /* no game this period: only the deviation grows (step 6) */
        double phis = sqrt(phi * phi + sigma * sigma);
        return (pl_glicko2){p.rating, phis * G2_SCALE, sigma};
    }
    /* steps 3 and 4: v, the estimated variance; delta, the estimated improvement */
    double vinv = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        double muj = (g[j].rating - 1500.0) / G2_SCALE, phij = g[j].deviation / G2_SCALE;
        double gj = g2_g(phij), e = g2_e(mu, muj, phij);
        vinv += gj * gj * e * (1.0 - e);
        sum += gj * (g[j].score - e);
    }
    double v = 1.0 / vinv, delta = v * sum;
    /* step 5: the new volatility, by the Illinois algorithm */
    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (g2_f(a - k * tau, delta, phi, v, a, tau) < 0.0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fA = g2_f(A, delta, phi, v, a, tau), fB = g2_f(B, delta, phi, v, a, tau);
    for (int it = 0; fabs(B - A) > G2_EPS && it < 200; it++) {
        double C = A + (A - B) * fA / (fB - fA), fC = g2_f(C, delta, phi, v, a, tau);
        if (fC * fB <= 0.0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    double sigma2 = exp(A / 2.0);
    /* steps 6 and 7: the new deviation and rating */
    double phis = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phis * phis) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    /* step 8: back to the Glicko scale */
    return (pl_glicko2){G2_SCALE * mu2 + 1500.0, G2_SCALE * phi2, sigma2};
}
